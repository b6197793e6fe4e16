/**
 * Deleting uploads nobody uses (API.md 4.20, 8): files no message links, once older than the
 * grace period (the reference's delete_old_unclaimed_attachments cron). The HTTP server runs
 * the sweep on a timer; `sweepUnusedUploads` is the whole job, callable on its own.
 */
import { ok, type Result } from 'neverthrow';
import { unixSeconds } from '../clock.js';
import type { Ctx } from '../context.js';
import type { ApiError } from '../errors.js';
import type { Attachment, Tx } from '../storage/types.js';
import { type PeriodicJob, startPeriodicJob } from '../jobs/periodic.js';
import { uploadUrl } from './path-id.js';
import { removeAttachment } from './remove.js';

/**
 * Removes every unlinked upload created more than `unusedUploadGraceSeconds` ago, except those
 * a pending scheduled message links (its delivery will claim them). Returns how many went.
 */
export async function sweepUnusedUploads(ctx: Ctx): Promise<number> {
  const removed = await removeUnusedUploads(ctx, ctx.config.unusedUploadGraceSeconds);
  return removed.isOk() ? removed.value.length : 0;
}

/**
 * The sweep with its own age (the operator's `delete-old-unclaimed-attachments --weeks`):
 * removes the unlinked uploads older than `olderThanSeconds` and returns them; with `dryRun`
 * it only returns what it would remove.
 */
export async function removeUnusedUploads(ctx: Ctx, olderThanSeconds: number, options: { dryRun?: boolean } = {}): Promise<Result<Attachment[], ApiError>> {
  const cutoff = unixSeconds(ctx.clock) - olderThanSeconds;
  const work = async (tx: Tx): Promise<Result<Attachment[], ApiError>> => {
    const unused = await tx.attachments.unusedBefore(cutoff);
    if (unused.length === 0) return ok([]);
    const scheduled = (await tx.scheduledMessages.due(Number.MAX_SAFE_INTEGER)).map((m) => m.content);
    const removable = unused.filter((attachment) => !scheduled.some((content) => content.includes(uploadUrl(attachment.pathId))));
    if (!options.dryRun) for (const attachment of removable) await removeAttachment(ctx, tx, attachment);
    return ok(removable);
  };
  return options.dryRun ? ctx.storage.read(work) : ctx.storage.transaction(work);
}

/** Sweeps now and then every `uploadSweepIntervalSeconds` until stopped. */
export function startUploadSweep(ctx: Ctx): PeriodicJob {
  return startPeriodicJob(ctx.logger, 'sweeping unused uploads', ctx.config.uploadSweepIntervalSeconds * 1000, () => sweepUnusedUploads(ctx), ctx.cluster?.jobs);
}
