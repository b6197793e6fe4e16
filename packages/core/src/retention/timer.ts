/** The retention timer: sweeps expired messages at start and then daily (the reference's archive_messages job). */
import type { Ctx } from '../context.js';
import { type PeriodicJob, startPeriodicJob } from '../jobs/periodic.js';
import { sweepExpiredMessages } from './sweep.js';

const DAY_MS = 86_400_000;

export function startRetentionSweeps(ctx: Ctx, options: { intervalMs?: number } = {}): PeriodicJob {
  return startPeriodicJob(ctx.logger, 'message retention sweep', options.intervalMs ?? DAY_MS, () => sweepExpiredMessages(ctx), ctx.cluster?.jobs);
}
