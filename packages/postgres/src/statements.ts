/**
 * The store code's `Statements` over one PostgreSQL connection: each SQL text is translated once
 * (translate.ts) and sent as a named prepared statement; rows come back as arrays and are decoded
 * by the same compiled decoders as SQLite's.
 */
import type { TransactionSql } from 'postgres';
import { type RunResult, rowDecoder, singleRowInsert, type Statements, type TableMap } from '@teamchat/core/internal';
import { arrayLiteral, type ColumnTypes, ftsToTsquery, quoteUserTable, storableScalar, type Translated, translateStatement } from './translate.js';

interface Entry extends Translated {
  decode?: (values: readonly unknown[]) => unknown;
}

/** Translations and decoders per SQL text, shared by a driver's connections (one schema). */
export interface StatementCache {
  columns: ColumnTypes;
  entries: Map<string, Entry>;
}

/** The value sent for each parameter: booleans as 0/1 (the schema's booleans are integers), lists as arrays. */
function parameters(entry: Entry, params: readonly unknown[]): unknown[] {
  let values: readonly unknown[] = params;
  if (entry.names) {
    const named = (params[0] ?? {}) as Record<string, unknown>;
    values = entry.names.map((name) => named[name]);
  }
  return entry.kinds.map((kind, i) => {
    const value = values[i];
    if (value === undefined || value === null) return null;
    if (kind === 'array') return arrayLiteral(typeof value === 'string' ? (JSON.parse(value) as unknown[]) : (value as unknown[]));
    if (kind === 'fts') return ftsToTsquery(String(value));
    if (typeof value === 'boolean') return value ? 1 : 0;
    return storableScalar(value);
  });
}

/**
 * Statements over the connection an operation holds: `connection()` gives the connection the
 * running operation reserved (a lane's stores serve one operation at a time).
 */
export function pgStatements(connection: () => TransactionSql, cache: StatementCache, onFailure: () => void): Statements {
  const entry = (sql: string): Entry => {
    let found = cache.entries.get(sql);
    if (!found) {
      // UPDATE texts vary with the patched columns: bounded like SQLite's statement cache.
      if (cache.entries.size >= 1024) cache.entries.clear();
      found = translateStatement(sql, cache.columns);
      cache.entries.set(sql, found);
    }
    return found;
  };
  /** Sends a statement; a failure is reported (PostgreSQL aborts the transaction) unless `recovered`. */
  const query = (found: Entry, params: readonly unknown[], recovered = false, on: TransactionSql = connection()) => {
    const sent = on.unsafe(found.text, parameters(found, params) as never[], { prepare: true }).values();
    if (!recovered) sent.catch(onFailure);
    return sent;
  };
  const rows = async <T>(map: TableMap<T>, sql: string, params: readonly unknown[]): Promise<T[]> => {
    const found = entry(sql);
    const result = await query(found, params);
    found.decode ??= rowDecoder(
      map,
      result.columns.map((c) => c.name),
    );
    return (result as unknown as unknown[][]).map(found.decode as (values: readonly unknown[]) => T);
  };
  return {
    dialect: 'postgres',
    async run(sql, ...params) {
      const found = entry(sql);
      if (found.ignoreUnique) return runIgnoringUnique(connection(), (savepoint) => query(found, params, true, savepoint));
      const result = await query(found, params);
      const first = (result as unknown as unknown[][])[0];
      return { changes: result.count, lastInsertRowid: found.returnsId && first ? Number(first[0]) : undefined };
    },
    async runEach(sql, paramLists) {
      const found = entry(sql);
      // Sent together: the connection pipelines them, one round trip for the lot.
      await Promise.all(paramLists.map((params) => query(found, params)));
    },
    async insertRows(sql, rows) {
      if (rows.length === 0) return;
      const insert = singleRowInsert(sql);
      const key = `\u0001rows ${sql}`;
      let found = cache.entries.get(key);
      if (!found) {
        found = { ...unnestInsert(sql, cache.columns), kinds: insert.columns.map(() => 'plain' as const) };
        cache.entries.set(key, found);
      }
      // One array per column, the rows' values in order: one statement, one round trip.
      const arrays = insert.columns.map((_, i) => arrayLiteral(rows.map((row) => (typeof row[i] === 'boolean' ? (row[i] ? 1 : 0) : row[i]))));
      await query(found, arrays);
    },
    async get(map, sql, ...params) {
      return (await rows(map, sql, params))[0];
    },
    all: (map, sql, ...params) => rows(map, sql, params),
  };
}

/**
 * The single-row `INSERT [OR IGNORE] INTO t (a, b) VALUES (?, ?)` as one statement for any
 * number of rows: `INSERT INTO t (a, b) SELECT * FROM unnest($1::type[], $2::type[])`, each
 * array typed as its column, with ON CONFLICT DO NOTHING for OR IGNORE (per row, as SQLite).
 */
export function unnestInsert(sql: string, columns: ColumnTypes): Translated {
  const insert = singleRowInsert(sql);
  const types = columns.get(insert.table);
  const arrays = insert.columns.map((column, i) => {
    const type = types?.get(column);
    if (!type) throw new Error(`insertRows: no column ${insert.table}.${column}`);
    return `$${i + 1}::${type}[]`;
  });
  const head = quoteUserTable(insert.head.replace(/^INSERT OR IGNORE INTO/i, 'INSERT INTO'));
  const text = `${head} SELECT * FROM unnest(${arrays.join(', ')})${insert.ignore ? ' ON CONFLICT DO NOTHING' : ''}`;
  return { text, kinds: insert.columns.map(() => 'plain'), returnsId: false };
}

/** PostgreSQL's unique_violation. */
const UNIQUE_VIOLATION = '23505';

/** Runs a write in a savepoint; a unique violation rolls back to it and reports no change. */
async function runIgnoringUnique(conn: TransactionSql, write: (savepoint: TransactionSql) => Promise<{ count: number }>): Promise<RunResult> {
  try {
    const result = await conn.savepoint((savepoint) => write(savepoint));
    return { changes: result.count, lastInsertRowid: undefined };
  } catch (error) {
    if ((error as { code?: string }).code !== UNIQUE_VIOLATION) throw error;
    return { changes: 0, lastInsertRowid: undefined };
  }
}
