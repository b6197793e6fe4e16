import type Database from 'better-sqlite3';
import { rowDecoder, type TableMap } from './columns.js';

/** Prepared statements of one connection, each SQL text prepared once. */
export interface Statements {
  /** Runs a write statement. */
  run(sql: string, ...params: unknown[]): Database.RunResult;
  /** The first row, decoded with `map`, or undefined. */
  get<T>(map: TableMap<T>, sql: string, ...params: unknown[]): T | undefined;
  /** Every row, decoded with `map`. A given SQL text must always be used with the same map. */
  all<T>(map: TableMap<T>, sql: string, ...params: unknown[]): T[];
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
    run: (sql, ...params) => entry(sql).statement.run(...params),
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
