/**
 * The durable scheduler: one timer armed for the next due scheduled message. It delivers what
 * is due at start (messages that fell due while the server was down), re-arms after each run,
 * and moves the timer earlier when a scheduled message is created or edited to an earlier time
 * (it listens to the scheduled_messages and reminders events, which are published after commit).
 */
import { performance } from 'node:perf_hooks';
import type { Ctx } from '../context.js';
import { deliverDueScheduledMessages } from './deliver.js';

export interface ScheduledDelivery {
  /** Resolves when the current run (if any) has finished. */
  idle(): Promise<void>;
  stop(): void;
}

/** Runs at least this often as a safety net, as the reference's worker checks once a minute. */
const MAX_SLEEP_MS = 60_000;

export function startScheduledDelivery(ctx: Ctx): ScheduledDelivery {
  let timer: NodeJS.Timeout | undefined;
  let armedAt = Number.POSITIVE_INFINITY;
  let stopped = false;
  let running: Promise<void> = Promise.resolve();

  const arm = (atMs: number) => {
    if (stopped || atMs >= armedAt) return;
    if (timer) clearTimeout(timer);
    armedAt = atMs;
    timer = setTimeout(run, Math.max(0, atMs - ctx.clock.now()));
    timer.unref();
  };

  function run(): void {
    timer = undefined;
    armedAt = Number.POSITIVE_INFINITY;
    running = running.then(async () => {
      if (stopped) return;
      try {
        const start = performance.now();
        const { sent, failed, nextDue } = await deliverDueScheduledMessages(ctx);
        if (sent.length + failed.length > 0) {
          const durationMs = Math.round(performance.now() - start);
          ctx.logger.info({ job: 'scheduled delivery', sent: sent.length, failed: failed.length, durationMs }, 'scheduled messages and reminders delivered');
        }
        const next = nextDue === undefined ? Number.POSITIVE_INFINITY : nextDue * 1000;
        arm(Math.min(next, ctx.clock.now() + MAX_SLEEP_MS));
      } catch (error) {
        // The store may be closing; try again later rather than stop delivering.
        ctx.logger.error({ err: error }, 'scheduled message delivery failed');
        arm(ctx.clock.now() + MAX_SLEEP_MS);
      }
    });
  }

  const unsubscribe = ctx.events.subscribe(({ event }) => {
    // A new reminder is a scheduled row too: it moves the timer earlier the same way.
    if (event.type === 'reminders' && event.op === 'add') {
      for (const reminder of event.reminders) arm(reminder.scheduled_delivery_timestamp * 1000);
      return;
    }
    if (event.type !== 'scheduled_messages' || (event.op !== 'add' && event.op !== 'update')) return;
    const changed = event.op === 'add' ? event.scheduled_messages : [event.scheduled_message];
    for (const message of changed) {
      if (!message.failed) arm(message.scheduled_delivery_timestamp * 1000);
    }
  });

  run();
  return {
    idle: () => running,
    stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      unsubscribe();
    },
  };
}
