/**
 * The retention timer: sweeps expired messages at start and then every `intervalMs` (the
 * reference's archive_messages job runs daily), one sweep at a time.
 */
import type { Ctx } from '../context.js';
import { sweepExpiredMessages } from './sweep.js';

export interface RetentionSweeps {
  /** Resolves when the current sweep (if any) has finished. */
  idle(): Promise<void>;
  stop(): void;
}

const DAY_MS = 86_400_000;

export function startRetentionSweeps(ctx: Ctx, options: { intervalMs?: number } = {}): RetentionSweeps {
  const intervalMs = options.intervalMs ?? DAY_MS;
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  let running: Promise<void> = Promise.resolve();

  function run(): void {
    timer = undefined;
    running = running.then(async () => {
      if (stopped) return;
      try {
        await sweepExpiredMessages(ctx);
      } catch (error) {
        // The store may be closing; the next run tries again.
        console.error('teamchat: message retention sweep failed', error);
      }
      if (stopped) return;
      timer = setTimeout(run, intervalMs);
      timer.unref();
    });
  }

  run();
  return {
    idle: () => running,
    stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
    },
  };
}
