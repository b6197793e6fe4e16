import type { JobLock } from '../cluster/types.js';
import type { Logger } from '../logger.js';

/**
 * A background job run at start and then every `intervalMs`, one run at a time, until stopped:
 * the shape of the server's housekeeping (the reference's cron jobs). A failed run is logged
 * and the next one tries again, since the store may be closing or briefly unavailable.
 */
export interface PeriodicJob {
  /** Resolves when the current run (if any) has finished. */
  idle(): Promise<void>;
  stop(): void;
}

/**
 * Among several processes (`lock`, the cluster's), a run happens on one node at a time and is
 * skipped where another node finished the job recently: the work is done once per interval
 * across the cluster, not once per process. A little under the interval counts as recent, so a
 * node's own next run is not skipped for a timer that fired a moment early.
 */
export function startPeriodicJob(logger: Logger, name: string, intervalMs: number, job: () => Promise<unknown>, lock?: JobLock): PeriodicJob {
  let stopped = false;
  let running: Promise<void> = Promise.resolve();
  const run = () => {
    running = running.then(async () => {
      if (stopped) return;
      try {
        if (lock) await lock.runExclusive(name, intervalMs * 0.9, job);
        else await job();
      } catch (error) {
        logger.error({ err: error, job: name }, `${name} failed`);
      }
    });
  };
  const timer = setInterval(run, intervalMs);
  timer.unref();
  run();
  return {
    idle: () => running,
    stop() {
      stopped = true;
      clearInterval(timer);
    },
  };
}
