/**
 * WAL checkpoints off the event loop. SQLite's automatic checkpoint runs inside the COMMIT that
 * takes the WAL past 1000 pages: it copies the WAL into the database file and fsyncs that file,
 * all on the event loop. Measured under a send load, one COMMIT in seven carried one, adding
 * about 9 ms at the median and up to 55 ms (more on a busy disk) to every request waiting
 * behind it. Here the writer's automatic checkpoint is off and a worker thread with its own
 * connection checkpoints the WAL instead, while the writer goes on committing.
 *
 * Durability is SQLite's own: a checkpoint only copies frames that are already durable in the
 * WAL (it fsyncs the WAL first) and records its progress only after the database file is
 * fsynced, so a crash at any point of it loses no committed transaction. The writer still
 * fsyncs the WAL at each COMMIT, before its callers are answered.
 *
 * Bounding the WAL: the writer starts the WAL over from its beginning when a transaction begins
 * while every frame has been copied, but under steady writes a checkpoint (which ends with an
 * fsync) rarely ends before the next commit adds frames (measured: the WAL grew without bound
 * at one commit per millisecond), and a RESTART checkpoint from the worker waits for readers
 * and writers to pause, which under steady writes may be never. So once the WAL is past
 * `limitPages`, the writer holds its next batch (asynchronously: the event loop goes on) until
 * the worker has checkpointed every frame; that batch then starts the WAL over, and the file's
 * frames are overwritten in place. Once the WAL has stopped growing (idle), the worker empties
 * the file with a TRUNCATE checkpoint.
 */
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type { Logger } from '../../logger.js';

/** When the checkpointer runs. */
export interface CheckpointLimits {
  /** How often the worker checkpoints the WAL (PASSIVE: never waits for, nor blocks, a writer). */
  intervalMs: number;
  /** The WAL size, in pages, past which the worker starts it over even while writes go on. */
  limitPages: number;
}

/**
 * The defaults. Every 100 ms keeps each checkpoint small (a few hundred pages at the send rate
 * of a busy server) and the WAL's read cost with it; 10,000 pages (40 MB at 4 KiB) is a bound
 * that only writes without a pause reach.
 */
export const DEFAULT_CHECKPOINT_LIMITS: CheckpointLimits = { intervalMs: 100, limitPages: 10_000 };

/** A running checkpointer. */
export interface Checkpointer {
  /**
   * While the WAL is past its limit: a promise that resolves once the worker has copied every
   * frame, for the writer to await before its next transaction (which then starts the WAL
   * over). Otherwise undefined. The writer must not commit until it resolves.
   */
  catchUp(): Promise<void> | undefined;
  /** Stops the worker and closes its connection; resolves once it has exited. Idempotent. */
  stop(): Promise<void>;
}

/** What the worker is given. */
interface CheckpointerData extends CheckpointLimits {
  driver: string;
  filename: string;
  synchronous: 'full' | 'normal';
}

/**
 * The worker's program, as JavaScript source (a worker runs it with `eval`): a function
 * stringified from this file would carry helpers the TypeScript transform adds (`__name`), and
 * a separate file would need its own entry in the bundled build. It uses only `require` and its
 * `workerData` (CheckpointerData). Each turn: a PASSIVE checkpoint; then a TRUNCATE one if
 * nothing was written since the previous turn and something is left in the WAL (idle: it holds
 * off no one), or a RESTART one if the WAL is past its limit. A failure is reported and the
 * turns go on.
 */
const WORKER_SOURCE = `
const { parentPort, workerData: data } = require('node:worker_threads');
const Database = require(data.driver);
const db = new Database(data.filename, { fileMustExist: true });
// Never wait for the writer or a reader: a checkpoint that cannot go on now is tried next turn.
db.pragma('busy_timeout = 0');
// A checkpoint fsyncs the WAL, then the database file, unless synchronous is OFF.
db.pragma(data.synchronous === 'normal' ? 'synchronous = NORMAL' : 'synchronous = FULL');
let previousLog = 0;
let timer;
function checkpoint() {
  try {
    return db.pragma('wal_checkpoint(PASSIVE)')[0].log;
  } catch (error) {
    parentPort.postMessage({ error: String(error) });
    return 0;
  }
}
function turn() {
  const log = checkpoint();
  if (log > data.limitPages) parentPort.postMessage({ overLimit: log });
  if (log > 0 && log === previousLog) {
    try {
      db.pragma('wal_checkpoint(TRUNCATE)');
    } catch (error) {
      parentPort.postMessage({ error: String(error) });
    }
    previousLog = 0;
  } else previousLog = log;
  timer = setTimeout(turn, data.intervalMs);
}
parentPort.on('message', (message) => {
  if (message === 'catch-up') {
    parentPort.postMessage({ caughtUp: checkpoint() });
    return;
  }
  clearTimeout(timer);
  db.close();
  parentPort.close();
});
timer = setTimeout(turn, data.intervalMs);
`;

/**
 * Starts checkpointing the WAL of `filename` (a file in WAL mode, whose writer has turned its
 * automatic checkpoint off) from a worker thread. If the worker fails, `onFailure` is called
 * once (the caller turns automatic checkpoints back on, so the WAL stays bounded). The worker
 * does not keep the process alive.
 */
export function startCheckpointer(
  filename: string,
  synchronous: 'full' | 'normal',
  limits: CheckpointLimits,
  logger: Logger,
  onFailure: () => void,
): Checkpointer {
  const data: CheckpointerData = { ...limits, filename, synchronous, driver: createRequire(import.meta.url).resolve('better-sqlite3') };
  const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: data });
  worker.unref();
  let stopping = false;
  let failed = false;
  const fail = (error: unknown) => {
    if (stopping || failed) return;
    failed = true;
    logger.error({ err: error }, 'storage: the WAL checkpointer stopped; checkpoints are back in COMMIT');
    onFailure();
  };
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  let overLimit = false;
  let caughtUp: (() => void)[] = [];
  const release = () => {
    const waiting = caughtUp;
    caughtUp = [];
    for (const resolve of waiting) resolve();
  };
  worker.on('message', (message: { error?: string; overLimit?: number; caughtUp?: number }) => {
    if (message.error) logger.error({ err: message.error }, 'storage: a WAL checkpoint failed');
    if (message.overLimit !== undefined) overLimit = true;
    if (message.caughtUp !== undefined) release();
  });
  worker.once('exit', release);
  worker.once('error', fail);
  worker.once('exit', (code) => fail(new Error(`the checkpointer exited with code ${code}`)));
  return {
    catchUp() {
      if (!overLimit || stopping || failed) return undefined;
      overLimit = false;
      worker.postMessage('catch-up');
      return new Promise((resolve) => caughtUp.push(resolve));
    },
    stop() {
      if (!stopping) {
        stopping = true;
        // Held until it has exited, or a process ending with close() would not wait for it.
        worker.ref();
        worker.postMessage('stop');
      }
      return exited;
    },
  };
}
