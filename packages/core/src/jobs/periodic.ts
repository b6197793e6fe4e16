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

export function startPeriodicJob(logger: Logger, name: string, intervalMs: number, job: () => Promise<unknown>): PeriodicJob {
  let stopped = false;
  let running: Promise<void> = Promise.resolve();
  const run = () => {
    running = running.then(async () => {
      if (stopped) return;
      try {
        await job();
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
