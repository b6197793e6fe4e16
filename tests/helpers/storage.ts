/**
 * Which storage driver the tests run on. The `sqlite` project (always) uses the default: the
 * SQLite driver in memory. The `postgres` project (only when TEAMCHAT_TEST_DATABASE_URL is set,
 * see vitest.config.ts) sets TEAMCHAT_TEST_DRIVER=postgres, and every world gets a PostgreSQL
 * database of its own, cloned from a migrated template (CREATE DATABASE … TEMPLATE: about a
 * tenth of a second, against a second to migrate a fresh schema). A closed storage drops its
 * database; the rest are dropped when the test file ends, and the template by the project's
 * global teardown (tests/helpers/postgres-setup.ts).
 */
import { randomBytes } from 'node:crypto';
import type { ContextOptions, Storage } from '@teamchat/core';
import { createPostgresStorage, type PostgresOptions } from '@teamchat/postgres';
import postgres from 'postgres';
import { afterAll } from 'vitest';

/** The server the PostgreSQL runs use, when one is configured. */
export const TEST_DATABASE_URL = process.env.TEAMCHAT_TEST_DATABASE_URL || undefined;

/** The driver this test process runs worlds on. */
export const TEST_DRIVER: 'sqlite' | 'postgres' =
  process.env.TEAMCHAT_TEST_DRIVER === 'postgres' && TEST_DATABASE_URL ? 'postgres' : 'sqlite';

/** The prefix of every database this test run creates (the teardown drops them by it). */
export const TEST_DATABASE_PREFIX = `tc_${process.env.TEAMCHAT_TEST_RUN ?? randomBytes(4).toString('hex')}_`;

/** `url` with its database name replaced. */
export function databaseUrl(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

/** Runs `work` on a short-lived connection to the configured server. */
export async function withAdmin<T>(work: (sql: postgres.Sql) => Promise<T>): Promise<T> {
  const admin = postgres(TEST_DATABASE_URL!, { max: 1, onnotice: () => undefined });
  try {
    return await work(admin);
  } finally {
    await admin.end({ timeout: 5 });
  }
}

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** Creates the migrated template database `name` (the global setup, or once per process). */
export async function createTemplate(name: string): Promise<void> {
  await withAdmin((sql) => sql.unsafe(`CREATE DATABASE ${quote(name)}`));
  const storage = createPostgresStorage({ url: databaseUrl(TEST_DATABASE_URL!, name), readConnections: 1 });
  await storage.read(async () => undefined);
  await storage.close();
}

let template: Promise<string> | undefined;
/** The template this process clones: the global setup's, or one of its own. */
function templateDatabase(): Promise<string> {
  template ??= (async () => {
    const given = process.env.TEAMCHAT_TEST_TEMPLATE;
    if (given) return given;
    const name = `${TEST_DATABASE_PREFIX}${process.pid}_tpl`;
    await createTemplate(name);
    return name;
  })();
  return template;
}

const created = new Set<string>();
let databases = 0;

/** Drops the given databases, closing any connection left to them. */
export async function dropDatabases(names: readonly string[]): Promise<void> {
  if (names.length === 0) return;
  await withAdmin(async (sql) => {
    for (const name of names) await sql.unsafe(`DROP DATABASE IF EXISTS ${quote(name)} WITH (FORCE)`);
  });
}

/**
 * A PostgreSQL storage in a fresh database cloned from the migrated template; closing it drops
 * the database. Operations wait for the clone.
 */
export function postgresTestStorage(options: Omit<PostgresOptions, 'url'> = {}): Storage {
  if (!TEST_DATABASE_URL) throw new Error('TEAMCHAT_TEST_DATABASE_URL is not set');
  const name = `${TEST_DATABASE_PREFIX}${process.pid}_${++databases}`;
  created.add(name);
  const opened = (async () => {
    const from = await templateDatabase();
    await withAdmin((sql) => sql.unsafe(`CREATE DATABASE ${quote(name)} TEMPLATE ${quote(from)}`));
    return createPostgresStorage({ readConnections: 1, ...options, url: databaseUrl(TEST_DATABASE_URL!, name) });
  })();
  opened.catch(() => undefined);
  let closed: Promise<void> | undefined;
  // Once close() is called, new operations are refused at once, as the driver itself does.
  const after = () => Promise.reject(new Error('storage: called after close()'));
  return {
    transaction: async (fn) => (closed ? after() : (await opened).transaction(fn)),
    read: async (fn) => (closed ? after() : (await opened).read(fn)),
    close() {
      closed ??= (async () => {
        await (await opened.catch(() => undefined))?.close();
        created.delete(name);
        await dropDatabases([name]);
      })();
      return closed;
    },
  };
}

// Drops this test file's databases that no one closed once its tests are done (registered while
// the file is collected; elsewhere, such as the global setup, the teardown drops them).
if (TEST_DATABASE_URL) {
  try {
    afterAll(async () => {
      await dropDatabases([...created]);
      created.clear();
    });
  } catch {
    // Not inside a test file.
  }
}

/**
 * The storage a world gets: undefined means the default (SQLite in memory). Worlds that ask for
 * SQLite itself (a database file, SQLite options) keep it.
 */
export function worldStorage(options: ContextOptions = {}): Storage | undefined {
  if (TEST_DRIVER !== 'postgres' || options.storage || options.databaseFile || options.sqlite) return undefined;
  return postgresTestStorage();
}
