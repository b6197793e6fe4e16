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
  /** The first row, decoded with `map`, or undefined. */
  get<T>(map: TableMap<T>, sql: string, ...params: unknown[]): MaybePromise<T | undefined>;
  /** Every row, decoded with `map`. A given SQL text must always be used with the same map. */
  all<T>(map: TableMap<T>, sql: string, ...params: unknown[]): MaybePromise<T[]>;
}

interface Entry {
  statement: Database.Statement;
  decode?: (values: readonly unknown[]) => unknown;
}

/**
 * Caches prepared statements per SQL text. UPDATE texts vary with the patched columns, so the
 * cache is bounded: past `limit` entries it starts over (statements are cheap to re-prepare).
 */
export function statementCache(db: Database.Database, limit = 256): Statements {
  const cache = new Map<string, Entry>();
  const entry = (sql: string): Entry => {
    let found = cache.get(sql);
    if (!found) {
      if (cache.size >= limit) cache.clear();
      found = { statement: db.prepare(sql) };
      cache.set(sql, found);
    }
    return found;
  };
  const reader = <T>(map: TableMap<T>, sql: string) => {
    const found = entry(sql);
    if (!found.decode) {
      found.statement.raw(true);
      found.decode = rowDecoder(map, found.statement.columns().map((c) => c.name));
    }
    return found as { statement: Database.Statement; decode: (values: readonly unknown[]) => T };
  };
  return {
    dialect: 'sqlite',
    run: (sql, ...params) => entry(sql).statement.run(...params),
    runEach(sql, paramLists) {
      const { statement } = entry(sql);
      for (const params of paramLists) statement.run(...params);
    },
    get(map, sql, ...params) {
      const { statement, decode } = reader(map, sql);
      const values = statement.get(...params) as unknown[] | undefined;
      return values ? decode(values) : undefined;
    },
    all(map, sql, ...params) {
      const { statement, decode } = reader(map, sql);
      return (statement.all(...params) as unknown[][]).map(decode);
    },
  };
}
