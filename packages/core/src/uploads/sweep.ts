/**
 * Deleting uploads nobody uses (API.md 4.20, 8): files no message links, once older than the
 * grace period (the reference's delete_old_unclaimed_attachments cron). The HTTP server runs
 * the sweep on a timer; `sweepUnusedUploads` is the whole job, callable on its own.
 */
import { ok } from 'neverthrow';
import { unixSeconds } from '../clock.js';
import type { Ctx } from '../context.js';
import { type PeriodicJob, startPeriodicJob } from '../jobs/periodic.js';
import { uploadUrl } from './path-id.js';
import { removeAttachment } from './remove.js';

/**
 * Removes every unlinked upload created more than `unusedUploadGraceSeconds` ago, except those
 * a pending scheduled message links (its delivery will claim them). Returns how many went.
 */
export async function sweepUnusedUploads(ctx: Ctx): Promise<number> {
  const cutoff = unixSeconds(ctx.clock) - ctx.config.unusedUploadGraceSeconds;
  const result = await ctx.storage.transaction(async (tx) => {
    const unused = await tx.attachments.unusedBefore(cutoff);
    if (unused.length === 0) return ok(0);
    const scheduled = (await tx.scheduledMessages.due(Number.MAX_SAFE_INTEGER)).map((m) => m.content);
    let removed = 0;
    for (const attachment of unused) {
      if (scheduled.some((content) => content.includes(uploadUrl(attachment.pathId)))) continue;
      await removeAttachment(ctx, tx, attachment);
      removed++;
    }
    return ok(removed);
  });
  return result.isOk() ? result.value : 0;
}

/** Sweeps now and then every `uploadSweepIntervalSeconds` until stopped. */
export function startUploadSweep(ctx: Ctx): PeriodicJob {
  return startPeriodicJob(ctx.logger, 'sweeping unused uploads', ctx.config.uploadSweepIntervalSeconds * 1000, () => sweepUnusedUploads(ctx), ctx.cluster?.jobs);
}
