import { AsyncLocalStorage } from 'node:async_hooks';
import { consoleLogger, type Logger, type Storage, type Stores, type Tx } from '@teamchat/core';
import type { Result } from 'neverthrow';
import postgres, { type Sql, type TransactionSql } from 'postgres';
import { Mutex, scopeTx, storesOver, type TxScope } from '@teamchat/core/internal';
import type { PostgresEventTransport } from './cluster/transport.js';
import { CommitOrder } from './commit-order.js';
import { columnTypes, migrate } from './schema.js';
import { pgStatements, type StatementCache } from './statements.js';

export interface PostgresOptions {
  /** A connection string, `postgres://user@host:port/database`. */
  url: string;
  /** The schema holding teamchat's tables (created if missing); `public` by default. */
  schema?: string;
  /** Connections kept for reads, which run in parallel (default 4); one more is kept for writes. */
  readConnections?: number;
  /** As SqliteOptions.detectNestedCalls: refuse an operation started inside another's callback (default true). */
  detectNestedCalls?: boolean;
  /** Where failures no caller can be told of are reported (an after-commit callback that threw). */
  logger?: Logger;
  /**
   * The event transport of a cluster of processes on this database (cluster/transport.ts):
   * each write transaction writes its staged events right before COMMIT, and each read takes
   * its snapshot with the event log's newest ID, for the queues registered in it.
   */
  events?: PostgresEventTransport;
}

/**
 * The stores one operation at a time uses, over the transaction that operation runs. Each
 * operation takes a connection from the pool for its transaction (postgres.js `begin`), so a
 * connection the server closed (a restart, an idle timeout) is replaced, never reused.
 */
interface Lane {
  conn: TransactionSql | undefined;
  /** Set when a statement of the running transaction failed: PostgreSQL has aborted it. */
  failed: boolean;
  stores: Stores;
}

/** Thrown out of `begin` to roll back a transaction whose callback returned Err. */
const ROLL_BACK = Symbol('roll back');

/** The key of the advisory lock every write transaction holds, in every process on the database. */
export const WRITE_LOCK = 7_464_851_203_002;

/**
 * The PostgreSQL driver (postgres.js). It keeps the contract of types.ts as follows.
 *
 * Writes: a process runs its transactions one at a time, in call order, on one connection
 * (READ COMMITTED). Each starts by taking a transaction-scoped advisory lock that every write
 * transaction of every process takes, so write transactions across processes run one at a time
 * too: each statement sees every transaction committed before its lock was granted, hence each
 * transaction runs as if alone and a read-modify-write never loses an update. A transaction is
 * answered after COMMIT returns (durable at the server's `synchronous_commit`), after its
 * after-commit callbacks ran; a failed statement aborts it (COMMIT then rolls back and rejects).
 *
 * Reads: each runs on one of `readConnections` connections, in parallel with each other and
 * with writes, in a REPEATABLE READ READ ONLY transaction: one snapshot for the whole callback.
 * A snapshot-taking statement and a COMMIT are never in flight at once in one process
 * (CommitOrder), and the callback is called as the snapshot's reply arrives, so a read sees a
 * commit of this process exactly when that commit's after-commit callbacks ran before it.
 *
 * Races between processes (a reaction added twice, an invitation accepted twice, a scheduled
 * message claimed twice, message IDs): the write lock orders them, and the unique constraints of
 * the schema (the same as SQLite's) refuse what would still slip through.
 */
export function createPostgresStorage(options: PostgresOptions): Storage {
  const schema = options.schema ?? 'public';
  const reads = options.readConnections ?? 4;
  const logger = options.logger ?? consoleLogger;
  const sql: Sql = postgres(options.url, {
    max: reads + 1,
    connection: { search_path: schema },
    onnotice: () => undefined,
    // int8 (IDs, counts, times) and numeric (sums) as numbers: every value fits a double.
    types: { bigint: { to: 20, from: [20, 1700], serialize: (x: number) => String(x), parse: (x: string) => Number(x) } },
  });
  const order = new CommitOrder();
  const writeLock = new Mutex();
  const idle: Lane[] = [];
  const waiting: ((lane: Lane) => void)[] = [];
  let writer: Lane | undefined;
  const running = options.detectNestedCalls === false ? null : new AsyncLocalStorage<TxScope>();
  let closing: Promise<void> | undefined;
  const inFlight = new Set<Promise<unknown>>();

  const ready = (async () => {
    // public exists; creating it would need a privilege an application's role may lack.
    if (schema !== 'public') await sql.unsafe(`CREATE SCHEMA IF NOT EXISTS ${quoteIdent(schema)}`);
    await migrate(sql);
    const cache: StatementCache = { columns: await columnTypes(sql), entries: new Map() };
    const lane = (): Lane => {
      const made: Lane = { conn: undefined, failed: false, stores: undefined as unknown as Stores };
      const connection = () => made.conn ?? raise(new Error('storage: statement outside an operation'));
      made.stores = storesOver(pgStatements(connection, cache, () => (made.failed = true)));
      return made;
    };
    writer = lane();
    for (let i = 0; i < reads; i++) idle.push(lane());
  })();
  // Reported through the operations that await it.
  ready.catch(() => undefined);

  const nestedError = (what: string) =>
    new Error(`storage: ${what}() called inside another storage callback; it would wait for that callback forever`);
  const refusal = (what: string): Error | undefined => {
    if (running?.getStore()?.live) return nestedError(what);
    if (closing) return new Error(`storage: ${what}() called after close()`);
    return undefined;
  };

  /** Runs a callback with a fresh handle and ends the handle as soon as the callback settles. */
  async function callback<T>(scope: TxScope, fn: (tx: Tx) => Promise<T>): Promise<T> {
    try {
      return await (running ? running.run(scope, () => fn(scope.tx)) : fn(scope.tx));
    } finally {
      scope.revoke();
    }
  }

  /** Tracks an operation so that close() can wait for it. */
  function track<T>(work: Promise<T>): Promise<T> {
    inFlight.add(work);
    const done = () => inFlight.delete(work);
    work.then(done, done);
    return work;
  }

  async function acquireReader(): Promise<Lane> {
    const lane = idle.pop();
    return lane ?? new Promise<Lane>((resolve) => waiting.push(resolve));
  }
  function releaseReader(lane: Lane): void {
    const next = waiting.shift();
    if (next) next(lane);
    else idle.push(lane);
  }

  async function write<T, E>(fn: (tx: Tx) => Promise<Result<T, E>>): Promise<Result<T, E>> {
    await ready;
    const lane = writer!;
    const scope = scopeTx(lane.stores, 'write');
    let result: Result<T, E> | undefined;
    let committing = false;
    try {
      await sql.begin(async (tx) => {
        lane.conn = tx;
        lane.failed = false;
        // Not awaited: the callback's first statements are pipelined behind it on this
        // connection, and the server runs them in order, only once the lock is granted. That
        // saves the round trip of waiting for the grant before sending anything else.
        const locked = tx.unsafe(`SELECT pg_advisory_xact_lock(${WRITE_LOCK})`).execute();
        locked.catch(() => (lane.failed = true));
        result = await callback(scope, fn);
        await locked;
        if (result.isErr()) throw ROLL_BACK;
        // A failed statement aborted the transaction, even if the callback caught its error.
        if (lane.failed) throw new Error('storage: a statement failed inside the transaction, which was rolled back');
        // Among several processes, the transaction's events are written with it (cluster/transport.ts).
        if (options.events) await options.events.writeStaged(scope.tx, tx as unknown as Sql);
        // From here to the after-commit callbacks, no snapshot is taken (CommitOrder).
        await order.beginCommit();
        committing = true;
      });
    } catch (error) {
      if (committing) order.endCommit();
      if (error === ROLL_BACK) return result!;
      throw error;
    } finally {
      lane.conn = undefined;
    }
    try {
      for (const after of scope.committed) {
        try {
          after();
        } catch (error) {
          logger.error({ err: error }, 'storage: an after-commit callback failed');
        }
      }
    } finally {
      order.endCommit();
    }
    return result!;
  }

  async function readOn<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
    await ready;
    const lane = await acquireReader();
    try {
      return (await sql.begin('isolation level repeatable read read only', async (tx) => {
        lane.conn = tx;
        const events = options.events;
        await order.beginSnapshot();
        let snapshot: readonly { id?: string | number | null }[];
        try {
          // The first statement takes the snapshot (REPEATABLE READ), not BEGIN; in a cluster it
          // also reads the event log's newest ID in that snapshot.
          snapshot = await tx.unsafe(events?.snapshotStatement ?? 'SELECT 1');
        } finally {
          order.endSnapshot();
        }
        // Called in the same step as the snapshot's reply: see CommitOrder.
        if (!events) return await callback(scopeTx(lane.stores, 'read'), fn);
        const eventId = Number(snapshot[0]?.id ?? 0);
        return await events.runInSnapshot(eventId, () => callback(scopeTx(lane.stores, 'read'), fn));
      })) as T;
    } finally {
      lane.conn = undefined;
      releaseReader(lane);
    }
  }

  return {
    transaction<T, E>(fn: (tx: Tx) => Promise<Result<T, E>>) {
      const refused = refusal('transaction');
      if (refused) return Promise.reject(refused);
      return track(writeLock.run(() => write(fn)));
    },
    read<T>(fn: (tx: Tx) => Promise<T>) {
      const refused = refusal('read');
      if (refused) return Promise.reject(refused);
      return track(readOn(fn));
    },
    close() {
      if (running?.getStore()?.live) return Promise.reject(nestedError('close'));
      closing ??= (async () => {
        await Promise.allSettled([...inFlight]);
        await ready.catch(() => undefined);
        await sql.end({ timeout: 5 });
      })();
      return closing;
    },
  };
}

function raise(error: Error): never {
  throw error;
}


/** A schema name as a quoted identifier. */
export function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}
