/**
 * The delivery queue of one context: deliveries start after the sending transaction commits,
 * never on the sender's request, at most `concurrency` at a time. A delivery that fails in an
 * unexpected way is logged; nothing here rejects unhandled.
 */
import type { Ctx } from '../../context.js';
import { deliver } from './deliver.js';
import type { DeliveryJob } from './job.js';
import { type OutgoingWebhookOptions, outgoingWebhookOptions } from './options.js';

interface Runner {
  options: OutgoingWebhookOptions;
  waiting: DeliveryJob[];
  running: number;
  stop: AbortController;
  idle: (() => void)[];
}

/** One runner per context, made on first use, so a context that sends to no bot has none. */
const runners = new WeakMap<Ctx, Runner>();

function runnerOf(ctx: Ctx): Runner {
  let runner = runners.get(ctx);
  if (!runner) {
    runner = { options: outgoingWebhookOptions(ctx.outgoingWebhooks), waiting: [], running: 0, stop: new AbortController(), idle: [] };
    runners.set(ctx, runner);
  }
  return runner;
}

/** Queues deliveries (called after commit). Past maxQueued waiting, a delivery is dropped and logged. */
export function enqueueDeliveries(ctx: Ctx, jobs: readonly DeliveryJob[]): void {
  const runner = runnerOf(ctx);
  if (runner.stop.signal.aborted) return;
  for (const job of jobs) {
    if (runner.waiting.length >= runner.options.maxQueued) {
      ctx.logger.warn({ botId: job.botId, messageId: job.message.id }, 'outgoing webhook queue full, delivery dropped');
      continue;
    }
    runner.waiting.push(job);
  }
  pump(ctx, runner);
}

function pump(ctx: Ctx, runner: Runner): void {
  while (runner.running < runner.options.concurrency && runner.waiting.length > 0) {
    const job = runner.waiting.shift()!;
    runner.running += 1;
    deliver(ctx, runner.options, job, runner.stop.signal)
      .then((result) => {
        // A retried delivery goes to the back of the queue, as the reference requeues it.
        if (result === 'retry' && !runner.stop.signal.aborted) runner.waiting.push(job);
      })
      .catch((error: unknown) => {
        if (!runner.stop.signal.aborted) ctx.logger.error({ err: error }, 'outgoing webhook delivery failed');
      })
      .finally(() => {
        runner.running -= 1;
        pump(ctx, runner);
      });
  }
  if (runner.running === 0 && runner.waiting.length === 0) for (const resolve of runner.idle.splice(0)) resolve();
}

/** Resolves once no delivery is waiting or running (at once if none ever was). */
export function outgoingWebhooksSettled(ctx: Ctx): Promise<void> {
  const runner = runners.get(ctx);
  if (!runner || (runner.running === 0 && runner.waiting.length === 0)) return Promise.resolve();
  return new Promise((resolve) => runner.idle.push(resolve));
}

/** Stops deliveries for good: the waiting ones are dropped, requests in flight aborted, and nothing is posted after. */
export function stopOutgoingWebhooks(ctx: Ctx): Promise<void> {
  const runner = runners.get(ctx);
  if (!runner) return Promise.resolve();
  runner.stop.abort();
  runner.waiting.length = 0;
  return outgoingWebhooksSettled(ctx);
}
