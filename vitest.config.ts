import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const src = (pkg: string, entry = 'index') => fileURLToPath(new URL(`./packages/${pkg}/src/${entry}.ts`, import.meta.url));

/** Each package entry point (package.json `exports`) to its source, matched exactly so that a subpath never resolves as a prefix of `.`. */
const entry = (specifier: string, path: string) => ({ find: new RegExp(`^${specifier}$`), replacement: path });

export default defineConfig({
  resolve: {
    alias: [
      entry('@teamchat/core', src('core')),
      entry('@teamchat/core/sqlite', src('core', 'sqlite')),
      entry('@teamchat/core/internal', src('core', 'internal')),
      entry('@teamchat/http-adapter', src('http-adapter')),
      entry('@teamchat/client', src('client')),
    ],
  },
  test: {
    include: ['tests/**/*.test.ts'],
    testTimeout: 20000,
    pool: 'forks',
  },
});
