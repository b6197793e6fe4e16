/**
 * What a driver over another SQL database reuses from the SQLite driver: the store code (written
 * once over `Statements`), the migrations (one source, in SQLite's DDL), row decoding, and the
 * per-callback handle. Not part of the public API: @teamchat/postgres imports it from source.
 */
export { storesOver } from './sqlite/store-set.js';
export type { Dialect, MaybePromise, RunResult, SingleRowInsert, Statements } from './sqlite/statements.js';
export { singleRowInsert } from './sqlite/statements.js';
export { rowDecoder, type TableMap } from './sqlite/columns.js';
export { MIGRATIONS } from './sqlite/migrations.js';
export { KEPT_ID_TABLES } from './sqlite/kept-ids.js';
export { scopeTx, type TxScope } from './scoped-tx.js';
export { Mutex } from './mutex.js';
