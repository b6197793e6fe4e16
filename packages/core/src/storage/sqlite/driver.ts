import { AsyncLocalStorage } from 'node:async_hooks';
import type Database from 'better-sqlite3';
import type { Result } from 'neverthrow';
import { consoleLogger, type Logger } from '../../logger.js';
import { Mutex } from '../mutex.js';
import { scopeTx, type TxScope } from '../scoped-tx.js';
import type { Storage, Stores, Tx } from '../types.js';
import { isInMemory, openReader, openWriter } from './connections.js';
import { type CheckpointLimits, type Checkpointer, DEFAULT_CHECKPOINT_LIMITS, startCheckpointer } from './checkpointer.js';
import { type BatchLimits, DEFAULT_BATCH_LIMITS, groupCommit } from './group-commit.js';
import { DEFAULT_SEARCH_ROW_BUDGET } from './search-budget.js';
import { sqliteStores } from './store-set.js';

export interface SqliteOptions {
  /** File path, or ':memory:' (the default) for a private in-memory database. */
  filename?: string;
  /**
   * How hard a commit waits for the disk (the `synchronous` pragma, in WAL mode).
   * - `'full'` (the default): the WAL is fsynced at every commit, so a transaction that
   *   committed survives a process crash and a power loss.
   * - `'normal'`: the WAL is fsynced only at checkpoints. A committed transaction survives a
   *   crash of the process (its pages are in the operating system's cache), but a power loss
   *   or kernel crash may roll back the last transactions committed before it; the file is
   *   never corrupted. Saves one fsync per commit (BENCHMARKS.md has the trade-off).
   */
  synchronous?: 'full' | 'normal';
  /**
   * The most candidate messages one full-text search may yield before it is stopped with
   * SearchTooBroadError (default DEFAULT_SEARCH_ROW_BUDGET): the bound on how long a search
   * holds the connection, which is the only thread. The statements of one compiled query share
   * it (a GET /messages window runs up to three), so a word in more than about a third of it
   * cannot be searched alone; raise it for very large histories at the cost of longer stalls.
   */
  searchRowBudget?: number;
  /**
   * Refuse at once an operation started from inside another operation's callback, which would
   * otherwise wait for that callback forever (default true). It tracks the running callback
   * through AsyncLocalStorage, which in Node 20 puts a hook on every promise of the process;
   * `teamchat serve` turns it off, since every operation it runs is tested with it on.
   */
  detectNestedCalls?: boolean;
  /** Where failures no caller can be told of are reported (an after-commit callback that threw); the console by default. */
  logger?: Logger;
  /**
   * Bounds of group commit (DEFAULT_BATCH_LIMITS): how many transactions, and for how long,
   * one batch takes before its COMMIT. For tests and tuning; the defaults suit a server.
   */
  batchLimits?: BatchLimits;
  /**
   * Where the WAL is checkpointed into the database file, on a file (checkpointer.ts):
   * by default from a worker thread with its own connection, every `intervalMs`, the WAL
   * truncated past `limitPages` or once idle (DEFAULT_CHECKPOINT_LIMITS); `'in-commit'`: by
   * SQLite itself, inside the COMMIT that takes the WAL past 1000 pages, on the event loop.
   */
  checkpoints?: Partial<CheckpointLimits> | 'in-commit';
}

/** The SQLite driver's storage: the contract plus a diagnostic for tests and operators. */
export interface SqliteStorage extends Storage {
  /**
   * Diagnostic: the current value of a PRAGMA on this driver's write connection, for example
   * `journal_mode`, `synchronous` (2 is FULL), `foreign_keys` or `user_version`. Read only: the
   * argument is a bare name, never an assignment. Runs between write batches, in turn.
   */
  pragma(name: string): Promise<unknown>;
}

/** A connection with its stores, and the lock that gives one operation at a time its use. */
interface Connection {
  db: Database.Database;
  stores: Stores;
  lock: Mutex;
}

/**
 * The embedded default driver: better-sqlite3 in WAL mode, a write connection and, for a file,
 * a read-only connection beside it.
 *
 * Durability: `synchronous = FULL` is set on every open unless `options.synchronous` says
 * 'normal'. A transaction is answered only after the COMMIT holding its writes has returned,
 * so an answered transaction survives a process crash and a power loss. On a file, the WAL is
 * checkpointed into the database file by a worker thread (`options.checkpoints`), not inside
 * a COMMIT on the event loop; close() stops it, then the writer's close makes the last
 * checkpoint.
 *
 * Writes (group commit, group-commit.ts): transactions run one at a time, in call order, on
 * the write connection. Those started in the same turn of the event loop, or queued while a
 * batch runs, join one batch: one BEGIN IMMEDIATE, each transaction after the first in its own
 * SAVEPOINT (an Err or a throw rolls back that transaction alone), then one COMMIT, one fsync,
 * for the whole batch. Right after that COMMIT, in one synchronous step, the after-commit
 * callbacks of the batch's committed transactions run in call order; then the callers are
 * answered. A batch is bounded (`batchLimits`); a lone transaction waits for no timer. If the
 * COMMIT fails, every transaction of the batch that returned Ok rejects.
 *
 * Reads: on a file, `read` runs on the read-only connection, one read at a time, never
 * waiting for a write batch and never seeing its uncommitted writes. Its snapshot (a WAL read
 * transaction) is fixed before its callback is called: the driver runs the read transaction's
 * first statement, then calls the callback in the same synchronous step. With `:memory:` there
 * is one connection (a second cannot share the database), and reads take turns with the write
 * batches under one lock.
 *
 * Why a read sees either a commit or its events, never both or neither (register relies on it:
 * it creates its event queue at the start of its read callback, then fetches the state): a
 * commit and its after-commit callbacks (which publish its events) run in one synchronous step,
 * and so do a read's snapshot and the synchronous start of its callback. JavaScript runs one
 * step at a time, so one of them comes wholly first: if the commit does, the snapshot includes
 * it and its events were published before the queue existed; if the read does, the snapshot
 * excludes it and the queue exists when its events are published.
 *
 * Isolation of callbacks: each callback gets its own `tx` handle, revoked when the callback
 * settles, so a leaked handle cannot slip statements into a later operation. An operation
 * started from inside another operation's callback (from the callback's own async context) is
 * rejected at once: a transaction would wait for the batch its caller holds. A write batch
 * holds the write connection while its callbacks await, so a callback must not await slow work
 * (password hashing, network): do it before the operation.
 *
 * One process per file: another process writing the same file makes BEGIN IMMEDIATE wait up
 * to `busy_timeout` (5 s) synchronously, blocking the event loop.
 *
 * Opening throws when the file's schema is newer than this code's migrations.
 */
export function createSqliteStorage(options: SqliteOptions = {}): SqliteStorage {
  const filename = options.filename ?? ':memory:';
  const searchRowBudget = options.searchRowBudget ?? DEFAULT_SEARCH_ROW_BUDGET;
  const synchronous = options.synchronous ?? 'full';
  const logger = options.logger ?? consoleLogger;
  const background = !isInMemory(filename) && options.checkpoints !== 'in-commit';
  const db = openWriter(filename, synchronous, !background);
  const writer: Connection = { db, stores: sqliteStores(db, searchRowBudget), lock: new Mutex() };
  let reader: Connection = writer;
  if (!isInMemory(filename)) {
    try {
      const readDb = openReader(filename);
      reader = { db: readDb, stores: sqliteStores(readDb, searchRowBudget), lock: new Mutex() };
    } catch (error) {
      db.close();
      throw error;
    }
  }
  let checkpointer: Checkpointer | undefined;
  if (background) {
    const given = options.checkpoints as Partial<CheckpointLimits> | undefined;
    const limits: CheckpointLimits = {
      intervalMs: given?.intervalMs ?? DEFAULT_CHECKPOINT_LIMITS.intervalMs,
      limitPages: given?.limitPages ?? DEFAULT_CHECKPOINT_LIMITS.limitPages,
    };
    // Should the worker fail, SQLite's own checkpoints come back, so the WAL stays bounded.
    checkpointer = startCheckpointer(filename, synchronous, limits, logger, () => {
      if (writer.db.open) writer.db.pragma('wal_autocheckpoint = 1000');
    });
  }
  const batches = groupCommit(writer.db, writer.lock, options.batchLimits ?? DEFAULT_BATCH_LIMITS, logger, () => checkpointer?.catchUp());
  const readSql = {
    begin: reader.db.prepare('BEGIN'),
    // Any statement that reads a table starts the WAL read transaction, fixing its snapshot.
    snapshot: reader.db.prepare('SELECT 1 FROM sqlite_master LIMIT 1'),
    rollback: reader.db.prepare('ROLLBACK'),
  };
  // The handle of the operation whose callback this async context runs in, if any. Tracking it
  // turns on Node's promise hooks for the whole process (a cost on every promise), so a server
  // whose operations are known not to nest may turn it off.
  const running = options.detectNestedCalls === false ? null : new AsyncLocalStorage<TxScope>();
  let closing: Promise<void> | undefined;

  const nestedError = (what: string) =>
    new Error(`storage: ${what}() called inside another storage callback; it would wait for that callback forever`);

  /** Why an operation cannot start now, if it cannot. */
  function refusal(what: string): Error | undefined {
    if (running?.getStore()?.live) return nestedError(what);
    if (closing) return new Error(`storage: ${what}() called after close()`);
    return undefined;
  }

  /** Queues `body` as the next operation on a connection. */
  function exclusive<T>(what: string, connection: Connection, body: () => Promise<T>): Promise<T> {
    const refused = refusal(what);
    return refused ? Promise.reject(refused) : connection.lock.run(body);
  }

  /** Runs a callback with a fresh handle and ends the handle as soon as the callback settles. */
  async function callback<T>(scope: TxScope, fn: (tx: Tx) => Promise<T>): Promise<T> {
    try {
      return await (running ? running.run(scope, () => fn(scope.tx)) : fn(scope.tx));
    } finally {
      scope.revoke();
    }
  }

  return {
    transaction<T, E>(fn: (tx: Tx) => Promise<Result<T, E>>) {
      const refused = refusal('transaction');
      if (refused) return Promise.reject(refused);
      const settled = batches.submit(async () => {
        const scope = scopeTx(writer.stores, 'write');
        const result = await callback(scope, fn);
        return { result, afterCommit: scope.committed };
      });
      return settled as Promise<Result<T, E>>;
    },
    read<T>(fn: (tx: Tx) => Promise<T>) {
      return exclusive('read', reader, async () => {
        readSql.begin.run();
        try {
          readSql.snapshot.get();
          // Called in the same synchronous step as the snapshot: see the invariant above.
          return await callback(scopeTx(reader.stores, 'read'), fn);
        } finally {
          if (reader.db.inTransaction) readSql.rollback.run();
        }
      });
    },
    pragma(name: string) {
      if (!/^[a-z_]+$/.test(name)) return Promise.reject(new Error(`storage: '${name}' is not a pragma name`));
      return exclusive('pragma', writer, async () => writer.db.pragma(name, { simple: true }));
    },
    close() {
      if (running?.getStore()?.live) return Promise.reject(nestedError('close'));
      // Operations started before close() finish first (every queued transaction, then what
      // waits for either lock); later ones are refused.
      closing ??= (async () => {
        await batches.drained();
        await Promise.all([writer.lock.run(async () => {}), reader.lock.run(async () => {})]);
        await checkpointer?.stop();
        // The checkpointer and the reader first: the writer, closing last, checkpoints the WAL
        // into the file and deletes it.
        if (reader !== writer) reader.db.close();
        writer.db.close();
      })();
      return closing;
    },
  };
}
