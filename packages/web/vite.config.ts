import { defineConfig } from 'vite';

/** Where `vite` (the dev server) sends API and file requests: a running `teamchat serve`. */
const server = process.env.TEAMCHAT_URL ?? 'http://127.0.0.1:9991';
const proxied = ['/api', '/user_uploads', '/user_avatars', '/static', '/avatar'];

export default defineConfig({
  // Relative asset URLs: the built files work wherever they are served from.
  base: './',
  esbuild: { jsx: 'automatic', jsxImportSource: 'preact' },
  build: { outDir: 'dist', emptyOutDir: true, manifest: true, target: 'es2022' },
  server: { proxy: Object.fromEntries(proxied.map((path) => [path, { target: server, changeOrigin: true }])) },
});
