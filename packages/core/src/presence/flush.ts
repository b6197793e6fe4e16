/** The presence flush timer: writes presence changed in memory to the store every interval. */
import type { Ctx } from '../context.js';
import { type PeriodicJob, startPeriodicJob } from '../jobs/periodic.js';
import { CLUSTER_PRESENCE_SYNC_MS } from './cluster.js';
import { flushPresence } from './memory.js';

/**
 * Starts the periodic presence flush (every `presenceFlushIntervalSeconds`; every second on a
 * cluster node, where the flush is also how nodes learn each other's reports: presence/cluster.ts). The HTTP server
 * starts it with its other timers; whoever stops it should flush once more after `idle()`
 * (closeContext does), so a clean shutdown loses nothing.
 */
export function startPresenceFlush(ctx: Ctx, options: { intervalMs?: number } = {}): PeriodicJob {
  return startPeriodicJob(ctx.logger, 'presence flush', options.intervalMs ?? (ctx.cluster ? CLUSTER_PRESENCE_SYNC_MS : ctx.config.presenceFlushIntervalSeconds * 1000), () => flushPresence(ctx), undefined, {
    // Every few seconds on a busy server: its lines are for debugging only.
    workLevel: 'debug',
  });
}
