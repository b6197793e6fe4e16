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
import type { Storage } from '@teamchat/core';
import { createPostgresStorage, type PostgresOptions } from '@teamchat/postgres';
import postgres from 'postgres';
import { afterAll, afterEach, expect } from 'vitest';

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

/** A database of this test file, with its driver and a connection to reset it between tests. */
interface Pooled {
  name: string;
  storage: Storage;
  admin: postgres.Sql;
}

/** Databases whose world has ended, reset and ready for the next world. */
const free: Pooled[] = [];
/** Every database this file created. */
const all: Pooled[] = [];
/** Worlds of the running test, handed back when it ends; those made outside a test live to the file's end. */
const lent: { pooled: Pooled; settle: () => Promise<void> }[] = [];
let databases = 0;
let resetScript: Promise<string> | undefined;

/** Drops the given databases, closing any connection left to them. */
export async function dropDatabases(names: readonly string[]): Promise<void> {
  if (names.length === 0) return;
  await withAdmin(async (sql) => {
    for (const name of names) await sql.unsafe(`DROP DATABASE IF EXISTS ${quote(name)} WITH (FORCE)`);
  });
}

/**
 * What brings a used database back to the template's state in one round trip: every table
 * emptied (far cheaper than a new clone: a world's tables hold a few rows) and every ID
 * sequence set back to the template's value. Rows the template holds are kept.
 */
async function templateReset(admin: postgres.Sql): Promise<string> {
  const tables = await admin`SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE n.nspname = 'public' AND c.relkind = 'r' AND c.relname NOT IN ('teamchat_schema_version', 'channel_state', 'user_state')`;
  const sequences = await admin`SELECT sequencename, coalesce(last_value, start_value) AS value, last_value IS NOT NULL AS called FROM pg_sequences WHERE schemaname = 'public'`;
  return [
    `SET session_replication_role = replica`,
    ...tables.map((t) => `DELETE FROM ${quote(t.relname as string)}`),
    `SET session_replication_role = DEFAULT`,
    ...sequences.map((q) => `SELECT setval('${quote(q.sequencename as string)}', ${q.value}, ${q.called})`),
  ].join(';\n');
}

/** A database for one more world: a reset one of this file, or a new clone of the template. */
async function takeDatabase(options: Omit<PostgresOptions, 'url'>): Promise<Pooled> {
  const reused = Object.keys(options).length === 0 ? free.pop() : undefined;
  if (reused) return reused;
  const from = await templateDatabase();
  const name = `${TEST_DATABASE_PREFIX}${process.pid}_${++databases}`;
  await withAdmin((sql) => sql.unsafe(`CREATE DATABASE ${quote(name)} TEMPLATE ${quote(from)}`));
  const url = databaseUrl(TEST_DATABASE_URL!, name);
  const admin = postgres(url, { max: 1, onnotice: () => undefined });
  resetScript ??= templateReset(admin);
  const pooled = { name, admin, storage: createPostgresStorage({ readConnections: 1, ...options, url }) };
  all.push(pooled);
  return pooled;
}

/**
 * A PostgreSQL storage in a database of its own, cloned from the migrated template (or a clone
 * an ended world used, emptied). Closing it, or the end of the test that made it, ends this
 * handle: its operations are refused from then on.
 */
export function postgresTestStorage(options: Omit<PostgresOptions, 'url'> = {}): Storage {
  if (!TEST_DATABASE_URL) throw new Error('TEAMCHAT_TEST_DATABASE_URL is not set');
  const opened = takeDatabase(options);
  opened.catch(() => undefined);
  const running = new Set<Promise<unknown>>();
  let ended: Promise<void> | undefined;
  const refused = () => Promise.reject(new Error('storage: called after close()'));
  const track = <T>(work: Promise<T>): Promise<T> => {
    running.add(work);
    const done = () => running.delete(work);
    work.then(done, done);
    return work;
  };
  /** Waits for this handle's operations, then gives its database back, reset. */
  const settle = () => {
    ended ??= (async () => {
      const pooled = await opened.catch(() => undefined);
      await Promise.allSettled([...running]);
      if (!pooled) return;
      if (Object.keys(options).length > 0) {
        await pooled.storage.close();
        return;
      }
      await pooled.admin.unsafe(await resetScript!);
      free.push(pooled);
    })();
    return ended;
  };
  if (expect.getState().currentTestName !== undefined) void opened.then((pooled) => lent.push({ pooled, settle }), () => undefined);
  return {
    transaction: (fn) => (ended ? refused() : track(opened.then((p) => p.storage.transaction(fn)))),
    read: (fn) => (ended ? refused() : track(opened.then((p) => p.storage.read(fn)))),
    close: settle,
  };
}

// Registered while a test file is collected (elsewhere, such as the global setup, it is not a
// test file, and the global teardown drops what is left): the worlds of a test are handed back
// when it ends, and the file's databases are dropped when it is done.
if (TEST_DATABASE_URL) {
  try {
    afterEach(async () => {
      await Promise.all(lent.splice(0).map(({ settle }) => settle()));
    });
    afterAll(async () => {
      const pooled = all.splice(0);
      // Bounded: a test may leave an operation pending on purpose; DROP … WITH (FORCE) ends its connections.
      const closing = Promise.allSettled(
        pooled.map(async (p) => {
          await p.storage.close();
          await p.admin.end({ timeout: 5 });
        }),
      );
      await Promise.race([closing, new Promise((resolve) => setTimeout(resolve, 10_000).unref())]);
      await dropDatabases([...pooled.map((p) => p.name), ...shared.splice(0)]);
    });
  } catch {
    // Not inside a test file.
  }
}

/**
 * A database of its own cloned from the migrated template, for tests that open several drivers
 * on one database (several processes); dropped when the test file is done.
 */
export async function postgresTestDatabase(): Promise<string> {
  if (!TEST_DATABASE_URL) throw new Error('TEAMCHAT_TEST_DATABASE_URL is not set');
  const from = await templateDatabase();
  const name = `${TEST_DATABASE_PREFIX}${process.pid}_shared_${++databases}`;
  await withAdmin((sql) => sql.unsafe(`CREATE DATABASE ${quote(name)} TEMPLATE ${quote(from)}`));
  shared.push(name);
  return databaseUrl(TEST_DATABASE_URL, name);
}
const shared: string[] = [];

/**
 * The storage a world gets: undefined means the default (SQLite in memory). Worlds that ask for
 * SQLite itself (a database file, SQLite options) keep it.
 */
export function worldStorage(options: { storage?: Storage; databaseFile?: string; sqlite?: unknown } = {}): Storage | undefined {
  if (TEST_DRIVER !== 'postgres' || options.storage || options.databaseFile || options.sqlite) return undefined;
  return postgresTestStorage();
}
