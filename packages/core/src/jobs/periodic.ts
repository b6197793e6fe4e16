import { performance } from 'node:perf_hooks';
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

/** How a job's runs are reported. */
export interface PeriodicJobOptions {
  /**
   * The level of the line a run that did work logs (the job resolved to a count above 0):
   * `info` by default; `debug` for a job that does a little work every few seconds.
   */
  workLevel?: 'info' | 'debug';
}

/**
 * A run that resolves to a number (rows swept, entries written) logs one line with it when it
 * is above 0; a failed run logs its error with the stack.
 *
 * Among several processes (`lock`, the cluster's), a run happens on one node at a time and is
 * skipped where another node finished the job recently: the work is done once per interval
 * across the cluster, not once per process. A little under the interval counts as recent, so a
 * node's own next run is not skipped for a timer that fired a moment early.
 */
export function startPeriodicJob(
  logger: Logger,
  name: string,
  intervalMs: number,
  job: () => Promise<unknown>,
  lock?: JobLock,
  options: PeriodicJobOptions = {},
): PeriodicJob {
  let stopped = false;
  let running: Promise<void> = Promise.resolve();
  const run = () => {
    running = running.then(async () => {
      if (stopped) return;
      const start = performance.now();
      try {
        let done: unknown;
        const work = async () => {
          done = await job();
        };
        if (lock) await lock.runExclusive(name, intervalMs * 0.9, work);
        else await work();
        // A run that found nothing to do says nothing: a quiet server's log stays quiet.
        if (typeof done === 'number' && done > 0) {
          logger[options.workLevel ?? 'info']({ job: name, count: done, durationMs: Math.round(performance.now() - start) }, `${name}: ${done} done`);
        }
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
