/**
 * Group commit for the SQLite write connection. With `synchronous = FULL` every COMMIT is an
 * fsync of the WAL, on the event loop; one COMMIT per transaction made concurrent writes
 * commit-bound. Here the transactions that queue while a batch runs join it: the batch is one
 * SQLite transaction, each of its operations runs in its own SAVEPOINT (so one that fails
 * rolls back alone), and one COMMIT makes all of them durable. Only after that COMMIT are the
 * operations' after-commit callbacks run and their callers answered.
 *
 * A lone transaction pays what it did without batching plus two savepoint statements
 * (microseconds): nothing waits to gather a batch; batches form only from transactions that
 * queued while one ran.
 */
import type Database from 'better-sqlite3';
import type { Result } from 'neverthrow';
import type { Mutex } from '../mutex.js';

/** What one transaction's callback produced: its result and the callbacks to run after its commit. */
export interface CallbackOutcome {
  result: Result<unknown, unknown>;
  afterCommit: readonly (() => void)[];
}

/** Runs one transaction's callback on the write connection (the driver gives it its `tx`). */
export type WriteCallback = () => Promise<CallbackOutcome>;

/** How much one batch may take before it commits. */
export interface BatchLimits {
  /** The most operations in one COMMIT. */
  maxOperations: number;
  /**
   * Once a batch has run this long (from its BEGIN), it takes no further operation and
   * commits: the bound on how long the first caller of a batch waits for the ones after it.
   */
  maxMilliseconds: number;
}

/**
 * The defaults. A send to a 50-subscriber channel takes about a millisecond of callback work
 * and an fsync one to a few: a 5 ms budget lets a batch absorb the sends that arrive during
 * one fsync and its own work while keeping the added wait of the batch's first caller far
 * under the send latency target (25 ms p99). 64 operations bounds the batch's WAL frames and
 * its rollback cost when the COMMIT fails.
 */
export const DEFAULT_BATCH_LIMITS: BatchLimits = { maxOperations: 64, maxMilliseconds: 5 };

/** The write side of the driver: transactions in, batches of them committed. */
export interface GroupCommit {
  /**
   * Queues a transaction. Resolves with its callback's result once the COMMIT holding its
   * writes has returned (an Err result: once its savepoint is rolled back and the batch has
   * ended); rejects when its callback throws, or when its batch could not commit.
   */
  submit(run: WriteCallback): Promise<Result<unknown, unknown>>;
  /** Resolves once every transaction submitted so far has settled. */
  drained(): Promise<void>;
}

interface Queued {
  run: WriteCallback;
  resolve(result: Result<unknown, unknown>): void;
  reject(error: unknown): void;
}

/** One operation of a batch, once its callback has settled and its savepoint has ended. */
type Finished =
  | { queued: Queued; kind: 'ok'; result: Result<unknown, unknown>; afterCommit: readonly (() => void)[] }
  | { queued: Queued; kind: 'err'; result: Result<unknown, unknown> }
  | { queued: Queued; kind: 'threw'; error: unknown };

/**
 * Runs the transactions submitted to it in batches on `db`, each batch holding `lock` from its
 * BEGIN to its last answer (so nothing else uses the write connection meanwhile; with an
 * in-memory database the reads take the same lock).
 */
export function groupCommit(db: Database.Database, lock: Mutex, limits: BatchLimits = DEFAULT_BATCH_LIMITS): GroupCommit {
  const sql = {
    begin: db.prepare('BEGIN IMMEDIATE'),
    commit: db.prepare('COMMIT'),
    rollback: db.prepare('ROLLBACK'),
    savepoint: db.prepare('SAVEPOINT operation'),
    release: db.prepare('RELEASE operation'),
    rollbackTo: db.prepare('ROLLBACK TO operation'),
  };
  const queue: Queued[] = [];
  /** Whether a batch is running or scheduled; new transactions then join the queue it reads. */
  let pumping = false;
  let whenDrained: (() => void)[] = [];

  /**
   * Runs one queued operation in its own savepoint, which it releases or rolls back. Resolves
   * with how the operation ended; rejects only when a savepoint statement fails.
   */
  async function runInSavepoint(queued: Queued): Promise<Finished> {
    sql.savepoint.run();
    try {
      const { result, afterCommit } = await queued.run();
      if (result.isOk()) {
        sql.release.run();
        return { queued, kind: 'ok', result, afterCommit };
      }
      undoSavepoint();
      return { queued, kind: 'err', result };
    } catch (error) {
      undoSavepoint();
      return { queued, kind: 'threw', error };
    }
  }

  /** Rolls back the current savepoint; a no-op when SQLite has already rolled back the whole transaction. */
  function undoSavepoint(): void {
    if (!db.inTransaction) return;
    sql.rollbackTo.run();
    sql.release.run();
  }

  /** Whether the batch started at `started` with `size` operations may take one more. */
  const hasRoom = (size: number, started: number) =>
    size < limits.maxOperations && (size === 0 || performance.now() - started < limits.maxMilliseconds);

  async function runBatch(): Promise<void> {
    try {
      sql.begin.run();
    } catch (error) {
      // As without batching: the transaction that could not begin (another process holds the
      // file past busy_timeout) fails; the next batch tries again.
      queue.shift()?.reject(error);
      return;
    }
    const started = performance.now();
    const done: Finished[] = [];
    let failure: unknown;
    try {
      while (queue.length > 0 && hasRoom(done.length, started)) {
        const queued = queue.shift()!;
        try {
          done.push(await runInSavepoint(queued));
        } catch (error) {
          // A savepoint statement itself failed: the batch's state is unknown, so none of it commits.
          done.push({ queued, kind: 'threw', error });
          throw error;
        }
        // Some errors (disk full, I/O) make SQLite roll back the whole transaction.
        if (!db.inTransaction) {
          const last = done.at(-1)!;
          failure = new Error('storage: SQLite rolled back the whole batch this transaction was in', {
            cause: last.kind === 'threw' ? last.error : undefined,
          });
          break;
        }
      }
      if (failure === undefined) sql.commit.run();
    } catch (error) {
      failure ??= error;
    }
    if (failure !== undefined) {
      if (db.inTransaction) rollbackQuietly();
      for (const f of done) f.queued.reject(f.kind === 'threw' ? f.error : failure);
      return;
    }
    // The COMMIT and the after-commit callbacks of the whole batch are one synchronous step:
    // no read snapshot, no other operation and no I/O callback runs between them.
    for (const f of done) if (f.kind === 'ok') runAfterCommit(f.afterCommit);
    for (const f of done) {
      if (f.kind === 'threw') f.queued.reject(f.error);
      else f.queued.resolve(f.result);
    }
  }

  function rollbackQuietly(): void {
    try {
      sql.rollback.run();
    } catch (error) {
      console.error('storage: ROLLBACK of a failed batch failed', error);
    }
  }

  /** Schedules the next batch behind whatever already waits for the lock (reads, pragma, close). */
  function schedule(): void {
    void lock.run(async () => {
      try {
        await runBatch();
      } catch (error) {
        console.error('storage: a write batch failed unexpectedly', error);
      }
      // Decided while the lock is held, so a transaction submitted from now on either joins
      // the queue of the batch scheduled here or schedules its own: none waits unscheduled.
      if (queue.length > 0) return schedule();
      pumping = false;
      const waiting = whenDrained;
      whenDrained = [];
      for (const resolve of waiting) resolve();
    });
  }

  return {
    submit(run) {
      return new Promise((resolve, reject) => {
        queue.push({ run, resolve, reject });
        if (!pumping) {
          pumping = true;
          schedule();
        }
      });
    },
    drained() {
      if (!pumping) return Promise.resolve();
      return new Promise((resolve) => whenDrained.push(resolve));
    },
  };
}

/** Runs after-commit callbacks; one that throws is reported and does not stop the others. */
function runAfterCommit(callbacks: readonly (() => void)[]): void {
  for (const callback of callbacks) {
    try {
      callback();
    } catch (error) {
      console.error('storage: an after-commit callback failed', error);
    }
  }
}
