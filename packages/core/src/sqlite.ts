/**
 * `@teamchat/core/sqlite`: the embedded SQLite storage driver. It is its own entry point so that
 * `@teamchat/core` never loads better-sqlite3 (a native module): an application on another
 * driver does not pay for it, and one on SQLite imports this module.
 *
 * @module
 */
import { type ContextOptions, type Ctx, createContext } from './context.js';
import { consoleLogger } from './logger.js';
import { createSqliteStorage, type SqliteOptions } from './storage/sqlite/driver.js';

export { createSqliteStorage, type SqliteOptions, type SqliteStorage } from './storage/sqlite/driver.js';

/** `createContext`'s options, with the SQLite driver's in place of `storage`. */
export interface SqliteContextOptions extends Omit<ContextOptions, 'storage'> {
  /** The database file; a private in-memory database when omitted (or `':memory:'`). */
  databaseFile?: string;
  /** Further options of the driver (for example `synchronous`); its logger is the context's. */
  sqlite?: Omit<SqliteOptions, 'filename' | 'logger'>;
}

/**
 * A context on a SQLite database: `createContext` with `createSqliteStorage` as its storage,
 * both reporting to the same logger. `closeContext` closes the database.
 *
 * ```ts
 * import { closeContext } from '@teamchat/core';
 * import { createSqliteContext } from '@teamchat/core/sqlite';
 *
 * const ctx = createSqliteContext({ databaseFile: 'chat.db' });
 * // … call operations with ctx …
 * await closeContext(ctx);
 * ```
 */
export function createSqliteContext(options: SqliteContextOptions = {}): Ctx {
  const { databaseFile, sqlite, ...rest } = options;
  const logger = rest.logger ?? consoleLogger;
  const storage = createSqliteStorage({ ...sqlite, filename: databaseFile, logger });
  return createContext({ ...rest, logger, storage });
}
