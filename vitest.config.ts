import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const src = (pkg: string) => fileURLToPath(new URL(`./packages/${pkg}/src/index.ts`, import.meta.url));

/**
 * Two projects run the same suite: `sqlite` always, `postgres` when TEAMCHAT_TEST_DATABASE_URL
 * names a PostgreSQL server (worlds then get a database each: tests/helpers/storage.ts).
 */
const postgresUrl = process.env.TEAMCHAT_TEST_DATABASE_URL;
if (!postgresUrl) console.log('PostgreSQL run skipped: TEAMCHAT_TEST_DATABASE_URL is not set (SQLite only).');

/** Tests that only make sense on SQLite (files, crashes, group commit, its migrations): not run on PostgreSQL. */
const SQLITE_ONLY = ['tests/crash/**', 'tests/contract/sqlite*.test.ts', 'tests/contract/concurrency.test.ts'];
/** Tests of PostgreSQL itself (they construct its driver): run once, in the postgres project. */
const POSTGRES_ONLY = ['tests/contract/postgres*.test.ts', 'tests/cli/postgres*.test.ts', 'tests/cluster/**'];

export default defineConfig({
  resolve: {
    alias: {
      '@teamchat/core': src('core'),
      '@teamchat/http-adapter': src('http-adapter'),
      '@teamchat/postgres': src('postgres'),
    },
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
