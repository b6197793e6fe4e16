/**
 * Removing uploads: the row and its links in the transaction, the blob once it has committed
 * (a rolled-back deletion keeps its file), and an attachment `remove` event to the owner.
 */
import type { Ctx } from '../context.js';
import type { Attachment, Tx } from '../storage/types.js';
import { announceAttachmentRemoval } from './attachment-events.js';

export async function removeAttachment(ctx: Ctx, tx: Tx, attachment: Attachment): Promise<void> {
  if (!(await tx.attachments.delete(attachment.realmId, attachment.id))) return;
  await announceAttachmentRemoval(ctx, tx, attachment);
  tx.afterCommit(() => {
    // The row is gone, so nothing serves the blob any more; a failure only leaves an unreachable file.
    ctx.uploads.delete(attachment.pathId).catch((error) => ctx.logger.warn({ err: error, pathId: attachment.pathId }, 'could not delete an upload'));
  });
}

/**
 * After messages were deleted or stopped linking files: removes those of `attachmentIds` that
 * no message links any more (API.md 4.20: a file goes with the last message linking it).
 */
export async function removeUnlinked(ctx: Ctx, tx: Tx, realmId: number, attachmentIds: readonly number[]): Promise<void> {
  const links = await tx.attachments.messageIds(attachmentIds);
  for (const [id, messageIds] of links) {
    if (messageIds.length > 0) continue;
    const attachment = await tx.attachments.byId(realmId, id);
    if (attachment) await removeAttachment(ctx, tx, attachment);
  }
}
