/**
 * Push work runs after commit and off the request path: each job starts once the committing
 * callback has returned (the store is free again), and its failures are reported, never thrown.
 */
import type { Ctx } from '../context.js';

const pending = new WeakMap<Ctx, Set<Promise<void>>>();

/** Runs `job` after the current callback (the store is free by then); a failure is reported, never thrown. */
export function inBackground(ctx: Ctx, job: () => Promise<void>): void {
  let jobs = pending.get(ctx);
  if (!jobs) pending.set(ctx, (jobs = new Set()));
  const running: Promise<void> = new Promise<void>((resolve) => setImmediate(resolve))
    .then(job)
    .catch((error) => ctx.logger.error({ err: error }, 'a push notification job failed'))
    .finally(() => jobs.delete(running));
  jobs.add(running);
}

/** Calls the notifier without waiting for it: a throw or a rejection is reported, a hang is harmless. */
export function callNotifier(ctx: Ctx, call: () => void | Promise<void>): void {
  const report = (error: unknown) => ctx.logger.error({ err: error }, 'the push notifier failed');
  try {
    const result = call();
    if (result && typeof result.then === 'function') result.then(undefined, report);
  } catch (error) {
    report(error);
  }
}

/**
 * Resolves once every push job started so far on `ctx` has handed its notifications to the
 * notifier (not once the notifier is done). For tests and orderly shutdown.
 */
export async function pushJobsSettled(ctx: Ctx): Promise<void> {
  for (;;) {
    const jobs = pending.get(ctx);
    if (!jobs || jobs.size === 0) return;
    await Promise.all([...jobs]);
  }
}
