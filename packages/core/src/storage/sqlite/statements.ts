import type Database from 'better-sqlite3';
import { rowDecoder, type TableMap } from './columns.js';

/** A value now (SQLite) or later (a networked database). Store code awaits every statement. */
export type MaybePromise<T> = T | Promise<T>;

/** What a write statement reports: rows changed, and the `id` of the row an INSERT added. */
export interface RunResult {
  changes: number;
  /** The inserted row's ID; undefined when nothing was inserted (PostgreSQL) or the table has none. */
  lastInsertRowid: number | bigint | undefined;
}

/** The SQL dialect a connection speaks, for the few statements written once per dialect. */
export type Dialect = 'sqlite' | 'postgres';

/**
 * Prepared statements of one connection, each SQL text prepared once. The stores are written
 * once over this interface in SQLite's SQL (`?` and `@name` parameters); a PostgreSQL
 * implementation translates each text once (see @teamchat/postgres). SQLite answers
 * synchronously, so its hot path pays one `await` of a plain value per statement.
 */
export interface Statements {
  readonly dialect: Dialect;
  /** Runs a write statement. */
  run(sql: string, ...params: unknown[]): MaybePromise<RunResult>;
  /** Runs a write statement once per parameter list, in order (SQLite loops, PostgreSQL pipelines). */
  runEach(sql: string, paramLists: readonly (readonly unknown[])[]): MaybePromise<void>;
  /**
   * Inserts every row with as few statements as the database allows. `sql` is the single-row
   * form, `INSERT [OR IGNORE] INTO t (a, b) VALUES (?, ?)`, with only `?` placeholders; each row
   * holds one value per column. SQLite runs multi-row VALUES statements of up to
   * MAX_ROWS_PER_INSERT rows; PostgreSQL runs one INSERT … SELECT FROM unnest(…) of the lot.
   */
  insertRows(sql: string, rows: readonly (readonly unknown[])[]): MaybePromise<void>;
  /** The first row, decoded with `map`, or undefined. */
  get<T>(map: TableMap<T>, sql: string, ...params: unknown[]): MaybePromise<T | undefined>;
  /** Every row, decoded with `map`. A given SQL text must always be used with the same map. */
  all<T>(map: TableMap<T>, sql: string, ...params: unknown[]): MaybePromise<T[]>;
}

/**
 * The most rows one SQLite INSERT takes: its parameters stay far below SQLite's variable limit
 * (32,766), and the texts prepared per row count (1 to this) stay few.
 */
export const MAX_ROWS_PER_INSERT = 64;

/** `INSERT … VALUES (?, ?)` and its parts, for its multi-row forms. */
export interface SingleRowInsert {
  /** Everything before VALUES: `INSERT [OR IGNORE] INTO t (a, b)`. */
  head: string;
  /** The row's placeholder group, `(?, ?)`. */
  row: string;
  ignore: boolean;
  table: string;
  columns: string[];
}

const parsedInserts = new Map<string, SingleRowInsert>();

/** Parses the single-row INSERT that `insertRows` takes (once per text); throws on any other text (a programming error). */
export function singleRowInsert(sql: string): SingleRowInsert {
  let parsed = parsedInserts.get(sql);
  if (!parsed) {
    parsed = parseSingleRowInsert(sql);
    // The texts are the store code's constants: a handful, so the memo needs no bound.
    parsedInserts.set(sql, parsed);
  }
  return parsed;
}

function parseSingleRowInsert(sql: string): SingleRowInsert {
  const match = /^\s*(INSERT (OR IGNORE )?INTO (\w+) \(([\w\s,]+)\))\s+VALUES\s*(\(\?(?:\s*,\s*\?)*\))\s*$/i.exec(sql);
  if (!match) throw new Error(`insertRows takes INSERT INTO t (a, …) VALUES (?, …), not: ${sql}`);
  const columns = match[4]!.split(',').map((name) => name.trim());
  if (match[5]!.split('?').length - 1 !== columns.length) throw new Error(`insertRows: one ? per column: ${sql}`);
  return { head: match[1]!, row: match[5]!, ignore: match[2] !== undefined, table: match[3]!, columns };
}

interface Entry {
  statement: Database.Statement;
  decode?: (values: readonly unknown[]) => unknown;
  /** For a `packed` map (TableMap.packed): the same rows, each as the text of one JSON array. */
  packed?: Database.Statement;
}

/**
 * The text SQLite prepares for a store's SQL: each `LIMIT ?` as `LIMIT +?`. The SQLite that
 * better-sqlite3 bundles (3.53) plans a bound LIMIT with its value, so it marks the statement
 * to be compiled again whenever that parameter is bound, which a cached statement is on every
 * run: 10 to 20 µs per GET /messages window walk, more than the walk itself. The unary plus makes the limit an
 * expression evaluated at run time, as any other parameter; the plans of the store's LIMIT
 * statements are the same either way (none depends on the limit's size).
 */
export function sqliteText(sql: string): string {
  return sql.replace(/\bLIMIT \?/g, 'LIMIT +?');
}

/** The declared column types whose values a JSON array gives back unchanged (TableMap.packed). */
const PACKABLE = new Set(['INTEGER', 'TEXT']);

/** `SELECT json_array(a, b, …) FROM (sql)`: the rows of `sql`, in its order, one text each. */
function packedSql(sql: string, columns: readonly Database.ColumnDefinition[]): string {
  for (const column of columns) {
    if (!PACKABLE.has(column.type?.toUpperCase() ?? '')) {
      throw new Error(`storage: a packed read needs INTEGER or TEXT columns; ${column.name} is ${column.type ?? 'an expression'}: ${sql}`);
    }
  }
  const names = columns.map((column) => `"${column.name.replace(/"/g, '""')}"`);
  return `SELECT json_array(${names.join(', ')}) FROM (${sql})`;
}

/**
 * Caches prepared statements per SQL text. UPDATE texts vary with the patched columns, and
 * multi-row INSERT texts with their row count, so the cache is bounded: past `limit` entries it
 * starts over (statements are cheap to re-prepare).
 */
export function statementCache(db: Database.Database, limit = 512): Statements {
  const cache = new Map<string, Entry>();
  const entry = (sql: string): Entry => {
    let found = cache.get(sql);
    if (!found) {
      if (cache.size >= limit) cache.clear();
      found = { statement: db.prepare(sqliteText(sql)) };
      cache.set(sql, found);
    }
    return found;
  };
  const reader = <T>(map: TableMap<T>, sql: string) => {
    const found = entry(sql);
    if (!found.decode) {
      found.statement.raw(true);
      const columns = found.statement.columns();
      found.decode = rowDecoder(map, columns.map((c) => c.name));
      if (map.packed) found.packed = db.prepare(packedSql(sqliteText(sql), columns)).pluck(true);
    }
    return found as { statement: Database.Statement; decode: (values: readonly unknown[]) => T; packed?: Database.Statement };
  };
  return {
    dialect: 'sqlite',
    run: (sql, ...params) => entry(sql).statement.run(...params),
    runEach(sql, paramLists) {
      const { statement } = entry(sql);
      for (const params of paramLists) statement.run(...params);
    },
    insertRows(sql, rows) {
      if (rows.length === 0) return;
      const insert = singleRowInsert(sql);
      for (let start = 0; start < rows.length; start += MAX_ROWS_PER_INSERT) {
        const chunk = rows.slice(start, start + MAX_ROWS_PER_INSERT);
        const text = `${insert.head} VALUES ${Array.from({ length: chunk.length }, () => insert.row).join(', ')}`;
        entry(text).statement.run(chunk.flat());
      }
    },
    get(map, sql, ...params) {
      const { statement, decode } = reader(map, sql);
      const values = statement.get(...params) as unknown[] | undefined;
      return values ? decode(values) : undefined;
    },
    all(map, sql, ...params) {
      const { statement, decode, packed } = reader(map, sql);
      if (packed) return (packed.all(...params) as string[]).map((text) => decode(JSON.parse(text) as unknown[]));
      return (statement.all(...params) as unknown[][]).map(decode);
    },
  };
}
