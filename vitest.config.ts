import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const src = (pkg: string) => fileURLToPath(new URL(`./packages/${pkg}/src/index.ts`, import.meta.url));

export default defineConfig({
  resolve: {
    alias: {
      '@teamchat/core': src('core'),
      '@teamchat/http-adapter': src('http-adapter'),
      '@teamchat/client': src('client'),
    },
  },
  test: {
    include: ['tests/**/*.test.ts'],
    testTimeout: 20000,
    pool: 'forks',
  },
});
