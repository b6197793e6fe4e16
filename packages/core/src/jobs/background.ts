import type { Ctx } from '../context.js';
import { startPresenceFlush } from '../presence/flush.js';
import { startRetentionSweeps } from '../retention/timer.js';
import { startScheduledDelivery } from '../scheduled/scheduler.js';
import { startUploadSweep } from '../uploads/sweep.js';

/** The server's housekeeping while it runs; `stop` ends it. */
export interface BackgroundWork {
  /** Stops every timer and resolves once the runs in progress have finished. */
  stop(): Promise<void>;
}

/**
 * Starts the work a running server does besides answering requests: delivering scheduled
 * messages and reminders (those that fell due while it was down at once), the daily retention
 * sweep, the sweep of uploads no message uses, and writing presence kept in memory in batches.
 * The HTTP server starts it; an application embedding the core calls it itself, once per
 * context, and calls `stop` before `closeContext`.
 *
 * ```ts
 * const ctx = createSqliteContext({ databaseFile: 'chat.db' }); // from '@teamchat/core/sqlite'
 * const work = startBackgroundWork(ctx);
 * // … serve or embed …
 * await work.stop();
 * await closeContext(ctx);
 * ```
 */
export function startBackgroundWork(ctx: Ctx): BackgroundWork {
  const jobs = [startScheduledDelivery(ctx), startRetentionSweeps(ctx), startUploadSweep(ctx), startPresenceFlush(ctx)];
  let stopping: Promise<void> | undefined;
  return {
    stop() {
      stopping ??= (async () => {
        for (const job of jobs) job.stop();
        await Promise.all(jobs.map((job) => job.idle()));
      })();
      return stopping;
    },
  };
}
