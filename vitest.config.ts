import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const src = (pkg: string, entry = 'index') => fileURLToPath(new URL(`./packages/${pkg}/src/${entry}.ts`, import.meta.url));

/** Each package entry point (package.json `exports`) to its source, matched exactly so that a subpath never resolves as a prefix of `.`. */
const entry = (specifier: string, path: string) => ({ find: new RegExp(`^${specifier}$`), replacement: path });

/**
 * Two projects run the same suite: `sqlite` always, `postgres` when TEAMCHAT_TEST_DATABASE_URL
 * names a PostgreSQL server (worlds then get a database each: tests/helpers/storage.ts).
 */
const postgresUrl = process.env.TEAMCHAT_TEST_DATABASE_URL;
// Said once: vitest loads this file more than once per run (the root, then the projects).
if (!postgresUrl && !process.env.TEAMCHAT_POSTGRES_SKIP_SAID) {
  process.env.TEAMCHAT_POSTGRES_SKIP_SAID = '1';
  console.log('PostgreSQL run skipped: TEAMCHAT_TEST_DATABASE_URL is not set (SQLite only).');
}

/**
 * Tests that only make sense on SQLite (files, crashes, group commit, its migrations) or touch no
 * storage at all (the web client's unit tests and browser tests): not run again on PostgreSQL.
 */
const SQLITE_ONLY = ['tests/crash/**', 'tests/contract/sqlite*.test.ts', 'tests/contract/concurrency.test.ts', 'tests/web/**'];
/** Tests of PostgreSQL itself (they construct its driver): run once, in the postgres project. */
const POSTGRES_ONLY = ['tests/contract/postgres*.test.ts', 'tests/cli/postgres*.test.ts', 'tests/cluster/**'];

export default defineConfig({
  resolve: {
    alias: [
      entry('@teamchat/core', src('core')),
      entry('@teamchat/core/sqlite', src('core', 'sqlite')),
      entry('@teamchat/core/internal', src('core', 'internal')),
      entry('@teamchat/http-adapter', src('http-adapter')),
      entry('@teamchat/client', src('client')),
      entry('@teamchat/postgres', src('postgres')),
    ],
  },
  test: {
    testTimeout: 20000,
    pool: 'forks',
    projects: [
      { extends: true, test: { name: 'sqlite', include: ['tests/**/*.test.ts'], exclude: POSTGRES_ONLY } },
      ...(postgresUrl
        ? [
            {
              extends: true,
              test: {
                name: 'postgres',
                include: ['tests/**/*.test.ts'],
                exclude: SQLITE_ONLY,
                env: { TEAMCHAT_TEST_DRIVER: 'postgres' },
                globalSetup: ['tests/helpers/postgres-setup.ts'],
                testTimeout: 60000,
                hookTimeout: 60000,
              },
            },
          ]
        : []),
    ],
  },
});
