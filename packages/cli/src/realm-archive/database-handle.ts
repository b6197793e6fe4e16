/**
 * One handle over either installation database for the realm archive: the data directory's SQLite
 * file (better-sqlite3) or a PostgreSQL database (postgres.js). Export and import speak SQL with
 * `?` placeholders and the schema's own table names; this file is the only place that knows how
 * the two drivers differ (placeholders, the quoted "user" table, int8 and bytea values, locks).
 */
import { createSqliteStorage } from '@teamchat/core/sqlite';
import { createPostgresStorage, WRITE_LOCK } from '@teamchat/postgres';
import Database from 'better-sqlite3';
import postgres from 'postgres';

export type Row = Record<string, unknown>;

/** What a statement runs on: the whole database outside a transaction, or one transaction. */
export interface Queryable {
  all(sql: string, params?: unknown[]): Promise<Row[]>;
  run(sql: string, params?: unknown[]): Promise<void>;
  /** Inserts rows (all with `columns`) in statements of bounded size. */
  insert(table: string, columns: string[], rows: unknown[][]): Promise<void>;
  /** Rows of a query in pages of `size`, in the query's order (which must be total). */
  pages(sql: string, params: unknown[], size: number): AsyncIterable<Row[]>;
  /** The value a new row's ID starts above: the largest ID the table ever handed out. */
  idFloor(table: string): Promise<number>;
  /** Brings the table's ID generator past every ID now in it (after rows were inserted with explicit IDs). */
  raiseIdGenerator(table: string): Promise<void>;
}

export interface DatabaseHandle extends Queryable {
  readonly kind: 'sqlite' | 'postgres';
  /** The table's columns (generated columns left out). */
  columns(table: string): Promise<string[]>;
  /** How many migrations the schema has. */
  schemaVersion(): Promise<number>;
  /** Runs `work` on one consistent snapshot of the database, while writers go on. */
  snapshot<T>(work: (tx: Queryable) => Promise<T>): Promise<T>;
  /** Runs `work` in one transaction that excludes every other writer; rolled back if it throws. */
  exclusive<T>(work: (tx: Queryable) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/** Rows per INSERT: well under PostgreSQL's 65,535 parameters and SQLite's 32,766 for the widest table. */
const INSERT_BATCH = 200;

export const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;

/**
 * Opens the SQLite file, migrating it first (created when missing), as the server would on
 * start. `readonly` opens it without migrating (export reads what is there).
 */
export async function openSqlite(file: string, options: { readonly: boolean }): Promise<DatabaseHandle> {
  if (!options.readonly) await createSqliteStorage({ filename: file }).close();
  const db = new Database(file, { readonly: options.readonly, fileMustExist: true });
  db.pragma('busy_timeout = 10000');
  db.pragma('foreign_keys = ON');
  const statements = new Map<string, Database.Statement>();
  const prepared = (text: string) => {
    let statement = statements.get(text);
    if (!statement) statements.set(text, (statement = db.prepare(text)));
    return statement;
  };
  const q: Queryable = {
    all: async (text, params = []) => prepared(text).all(...params.map(toSqlite)) as Row[],
    run: async (text, params = []) => {
      prepared(text).run(...params.map(toSqlite));
    },
    insert: async (table, columns, rows) => {
      const statement = prepared(`INSERT INTO ${quote(table)} (${columns.map(quote).join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`);
      for (const row of rows) statement.run(...row.map(toSqlite));
    },
    async *pages(text, params, size) {
      let page: Row[] = [];
      // Its own statement: an iterating statement cannot run anything else meanwhile.
      for (const row of db.prepare(text).iterate(...params.map(toSqlite)) as Iterable<Row>) {
        page.push(row);
        if (page.length >= size) {
          yield page;
          page = [];
        }
      }
      if (page.length > 0) yield page;
    },
    idFloor: async (table) => {
      const max = (prepared(`SELECT coalesce(max(id), 0) AS n FROM ${quote(table)}`).get() as { n: number }).n;
      const sequence = prepared('SELECT seq FROM sqlite_sequence WHERE name = ?').get(table) as { seq: number } | undefined;
      const kept = prepared('SELECT value FROM id_high_water WHERE name = ?').get(table) as { value: number } | undefined;
      return Math.max(max, sequence?.seq ?? 0, kept?.value ?? 0);
    },
    // SQLite raises AUTOINCREMENT counters itself when a larger ID is inserted.
    raiseIdGenerator: async () => undefined,
  };
  const inTransaction = async <T>(begin: string, work: (tx: Queryable) => Promise<T>): Promise<T> => {
    db.exec(begin);
    try {
      const result = await work(q);
      db.exec('COMMIT');
      return result;
    } catch (error) {
      if (db.inTransaction) db.exec('ROLLBACK');
      throw error;
    }
  };
  return {
    kind: 'sqlite',
    ...q,
    columns: async (table) => (db.prepare('SELECT name FROM pragma_table_xinfo(?) WHERE hidden = 0').all(table) as { name: string }[]).map((c) => c.name),
    schemaVersion: async () => db.pragma('user_version', { simple: true }) as number,
    // A read transaction in WAL mode sees one snapshot; the server's commits go on beside it.
    snapshot: (work) => inTransaction('BEGIN DEFERRED', work),
    // IMMEDIATE: the write lock from the first statement, so the IDs read are still free at commit.
    exclusive: (work) => inTransaction('BEGIN IMMEDIATE', work),
    close: async () => {
      db.close();
    },
  };
}

/** Opens the PostgreSQL database, migrating it first (as `serve --database` would). */
export async function openPostgres(url: string, options: { readonly: boolean }): Promise<DatabaseHandle> {
  if (!options.readonly) {
    const storage = createPostgresStorage({ url, readConnections: 1, detectNestedCalls: false });
    try {
      await storage.read(async () => undefined);
    } finally {
      await storage.close();
    }
  }
  const sql = postgres(url, {
    max: 2,
    onnotice: () => undefined,
    // int8 as numbers, as the driver reads them: every ID fits a double.
    types: { bigint: { to: 20, from: [20, 1700], serialize: (x: number) => String(x), parse: (x: string) => Number(x) } },
  });
  const sequenceOf = async (conn: postgres.Sql | postgres.TransactionSql, table: string) =>
    ((await conn.unsafe('SELECT pg_get_serial_sequence($1, $2) AS seq', [quote(table), 'id'])) as unknown as [{ seq: string | null }])[0].seq;
  const pgQueryable = (conn: postgres.Sql | postgres.TransactionSql): Queryable => ({
    all: async (text, params = []) => [...(await conn.unsafe(toPostgres(text), params.map(toPostgresValue) as never[]))] as Row[],
    run: async (text, params = []) => {
      await conn.unsafe(toPostgres(text), params.map(toPostgresValue) as never[]);
    },
    insert: async (table, columns, rows) => {
      for (let start = 0; start < rows.length; start += INSERT_BATCH) {
        const batch = rows.slice(start, start + INSERT_BATCH);
        const values = batch.map((_, r) => `(${columns.map((_, c) => `$${r * columns.length + c + 1}`).join(', ')})`).join(', ');
        await conn.unsafe(`INSERT INTO ${quote(table)} (${columns.map(quote).join(', ')}) VALUES ${values}`, batch.flat().map(toPostgresValue) as never[]);
      }
    },
    async *pages(text, params, size) {
      // A cursor: a large realm is read a page at a time, never whole.
      for await (const page of conn.unsafe(toPostgres(text), params.map(toPostgresValue) as never[]).cursor(size)) yield page as Row[];
    },
    idFloor: async (table) => {
      const [{ n }] = (await conn.unsafe(`SELECT coalesce(max(id), 0) AS n FROM ${quote(table)}`)) as unknown as [{ n: number }];
      const seq = await sequenceOf(conn, table);
      let sequence = 0;
      if (seq) {
        const [state] = (await conn.unsafe(`SELECT last_value, is_called FROM ${seq}`)) as unknown as [{ last_value: number; is_called: boolean }];
        sequence = state.is_called ? Number(state.last_value) : Number(state.last_value) - 1;
      }
      const kept = (await conn.unsafe('SELECT value FROM id_high_water WHERE name = $1', [table])) as unknown as { value: number }[];
      return Math.max(Number(n), sequence, Number(kept[0]?.value ?? 0));
    },
    raiseIdGenerator: async (table) => {
      const seq = await sequenceOf(conn, table);
      if (!seq) return;
      await conn.unsafe(`SELECT setval('${seq}', greatest((SELECT coalesce(max(id), 0) FROM ${quote(table)}), (SELECT last_value FROM ${seq}), 1))`);
    },
  });
  const q = pgQueryable(sql);
  return {
    kind: 'postgres',
    ...q,
    columns: async (table) =>
      (
        (await sql`SELECT column_name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = ${table} AND is_generated = 'NEVER' ORDER BY ordinal_position`) as unknown as {
          column_name: string;
        }[]
      ).map((c) => c.column_name),
    schemaVersion: async () => {
      const rows = (await sql`SELECT version FROM teamchat_schema_version`.catch(() => [])) as unknown as { version: number }[];
      return Number(rows[0]?.version ?? 0);
    },
    snapshot: async (work) => (await sql.begin('ISOLATION LEVEL REPEATABLE READ READ ONLY', (tx) => work(pgQueryable(tx)))) as never,
    exclusive: async (work) =>
      (await sql.begin(async (tx) => {
        // The lock every write transaction of every server process takes (driver.ts): none writes meanwhile.
        await tx.unsafe(`SELECT pg_advisory_xact_lock(${WRITE_LOCK})`);
        return work(pgQueryable(tx));
      })) as never,
    close: () => sql.end({ timeout: 5 }),
  };
}

/** `?` placeholders as PostgreSQL's `$n` (callers quote every table name, so "user" reads on both). */
function toPostgres(text: string): string {
  let n = 0;
  return text.replace(/\?/g, () => `$${++n}`);
}

const toSqlite = (value: unknown) => (typeof value === 'boolean' ? Number(value) : value);
const toPostgresValue = (value: unknown) => (value instanceof Uint8Array ? Buffer.from(value) : value);
