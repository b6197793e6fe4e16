/**
 * Group commit for the SQLite write connection. With `synchronous = FULL` every COMMIT is an
 * fsync of the WAL, on the event loop; one COMMIT per transaction made concurrent writes
 * commit-bound. Here the transactions queued when a batch begins, and those that queue while it
 * runs, join it: the batch is one SQLite transaction, each operation after the first runs in its
 * own SAVEPOINT (so one that fails rolls back alone), and one COMMIT makes all of them durable.
 * Only after that COMMIT are the operations' after-commit callbacks run and their callers
 * answered.
 *
 * A lone transaction pays what it did without batching (no savepoint: see `runOne`) plus the
 * rest of the event loop's current turn (see `schedule`): no timer waits to gather a batch.
 * Batches form from the transactions started in the same turn and those that queue while one
 * runs, which includes every request that arrived during the previous COMMIT's fsync (it
 * blocks the loop).
 */
import type Database from 'better-sqlite3';
import type { Result } from 'neverthrow';
import { consoleLogger, type Logger } from '../../logger.js';
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
 * on an idle machine and its fsync one to a few: a 10 ms budget lets a batch take the sends
 * that queued during one fsync (measured: batches of 3 to 17 under 50 concurrent HTTP senders)
 * while keeping the loop held by a batch, and the added wait of its first caller, to about
 * 10 ms plus one operation and one fsync. 64 operations bounds a batch's WAL frames and what a
 * failed COMMIT takes down.
 */
export const DEFAULT_BATCH_LIMITS: BatchLimits = { maxOperations: 64, maxMilliseconds: 10 };

/** The write side of the driver: transactions in, batches of them committed. */
export interface GroupCommit {
  /**
   * Queues a transaction. Resolves with its callback's result once the COMMIT holding its
   * writes has returned (an Err result: once its writes are rolled back and the batch has
   * ended); rejects when its callback throws, or when it returned Ok and its batch could not
   * commit.
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
 * in-memory database the reads take the same lock). A batch begins once `beforeBatch`'s
 * promise, if it returns one, has resolved.
 */
export function groupCommit(
  db: Database.Database,
  lock: Mutex,
  limits: BatchLimits = DEFAULT_BATCH_LIMITS,
  logger: Logger = consoleLogger,
  beforeBatch: () => Promise<void> | undefined = () => undefined,
): GroupCommit {
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
   * Runs one queued operation and ends it: kept, or its writes undone. The first operation of
   * a SQLite transaction runs without a savepoint, since a savepoint makes SQLite copy each
   * page the operation changes into a sub-journal, and a lone transaction need not pay that:
   * if it fails, the whole transaction, which holds only its writes, rolls back. Each later one
   * runs in its own savepoint. Resolves with how the operation ended; rejects only when a
   * savepoint or rollback statement itself fails.
   */
  async function runOne(queued: Queued, first: boolean): Promise<Finished> {
    if (!first) sql.savepoint.run();
    let failed: Finished;
    try {
      const { result, afterCommit } = await queued.run();
      if (result.isOk()) {
        if (!first) sql.release.run();
        return { queued, kind: 'ok', result, afterCommit };
      }
      failed = { queued, kind: 'err', result };
    } catch (error) {
      failed = { queued, kind: 'threw', error };
    }
    // A no-op when SQLite has already rolled back the whole transaction (see runBatch).
    if (db.inTransaction) {
      if (first) sql.rollback.run();
      else {
        sql.rollbackTo.run();
        sql.release.run();
      }
    }
    return failed;
  }

  /** Whether the batch started at `started` with `size` operations may take one more. */
  const hasRoom = (size: number, started: number) =>
    size < limits.maxOperations && (size === 0 || performance.now() - started < limits.maxMilliseconds);

  async function runBatch(): Promise<void> {
    const started = performance.now();
    const done: Finished[] = [];
    /** How many operations' writes the open SQLite transaction holds (0: none is open). */
    let holding = 0;
    let failure: unknown;
    try {
      while (queue.length > 0 && hasRoom(done.length, started)) {
        const queued = queue.shift()!;
        if (holding === 0) {
          try {
            sql.begin.run();
          } catch (error) {
            // As without batching: the transaction that could not begin (another process holds
            // the file past busy_timeout) fails; the next batch tries again.
            done.push({ queued, kind: 'threw', error });
            break;
          }
        }
        let finished: Finished;
        try {
          finished = await runOne(queued, holding === 0);
        } catch (error) {
          // A savepoint statement failed: the transaction's state is unknown; none of it commits.
          done.push({ queued, kind: 'threw', error });
          throw error;
        }
        done.push(finished);
        if (finished.kind === 'ok') holding++;
        // Some errors (disk full, I/O) make SQLite roll back the whole transaction, taking the
        // writes of the operations before with it (even if the callback caught the error).
        if (holding > 0 && !db.inTransaction) {
          failure = new Error('storage: SQLite rolled back the whole batch this transaction was in', {
            cause: finished.kind === 'threw' ? finished.error : undefined,
          });
          break;
        }
      }
      if (holding > 0 && failure === undefined) sql.commit.run();
    } catch (error) {
      failure ??= error;
    }
    if (failure !== undefined) {
      if (db.inTransaction) rollbackQuietly();
      // What was to commit is lost; what ended in Err or threw ends as it did.
      for (const f of done) {
        if (f.kind === 'ok') f.queued.reject(failure);
        else settle(f);
      }
      return;
    }
    // The COMMIT and the after-commit callbacks of the whole batch are one synchronous step:
    // no read snapshot, no other operation and no I/O callback runs between them.
    for (const f of done) if (f.kind === 'ok') runAfterCommit(f.afterCommit, logger);
    for (const f of done) settle(f);
  }

  /** Answers an operation's caller as its callback ended. */
  function settle(f: Finished): void {
    if (f.kind === 'threw') f.queued.reject(f.error);
    else f.queued.resolve(f.result);
  }

  function rollbackQuietly(): void {
    try {
      sql.rollback.run();
    } catch (error) {
      logger.error({ err: error }, 'storage: ROLLBACK of a failed batch failed');
    }
  }

  /**
   * Schedules the next batch behind whatever already waits for the lock (reads, pragma, close).
   * The batch begins in the check phase of the event loop (setImmediate), after the I/O
   * callbacks of the current turn: a server's requests each arrive in their own I/O callback,
   * and a transaction whose callback awaits only microtasks would otherwise begin, run and
   * commit (fsync included) before the next request's callback runs, so every batch would
   * hold one transaction. No timer is involved: a lone transaction waits for the rest of the
   * current turn only, and an idle loop turns at once.
   */
  function schedule(): void {
    void lock.run(async () => {
      await new Promise<void>((resolve) => setImmediate(resolve));
      try {
        // Something the batch must wait for (the WAL checkpointer catching up), if any; the
        // transactions that queue meanwhile join the batch.
        await beforeBatch();
        await runBatch();
      } catch (error) {
        logger.error({ err: error }, 'storage: a write batch failed unexpectedly');
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
function runAfterCommit(callbacks: readonly (() => void)[], logger: Logger): void {
  for (const callback of callbacks) {
    try {
      callback();
    } catch (error) {
      logger.error({ err: error }, 'storage: an after-commit callback failed');
    }
  }
}
