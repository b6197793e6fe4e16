/**
 * `attachment` events (SHAPES.md 4.18): to the owner only, after commit, with the realm's
 * `upload_space_used` as it is once the transaction's writes are in.
 */
import type { Ctx } from '../context.js';
import { publishOnCommit } from '../events/publish.js';
import type { Attachment, Tx } from '../storage/types.js';
import { attachmentRecords } from './attachment-record.js';
import type { DistributiveOmit } from '../events/types.js';
import type { AttachmentEvent } from '../events/union/personal.js';

/** op `add` (a new upload) or `update` (the messages linking it changed): the full record. */
export async function announceAttachment(ctx: Ctx, tx: Tx, op: 'add' | 'update', attachment: Attachment): Promise<void> {
  const owner = await tx.users.byId(attachment.realmId, attachment.ownerId);
  if (!owner) return;
  const [record] = await attachmentRecords(tx, owner, [attachment]);
  publish(ctx, tx, attachment, { op, attachment: record!, upload_space_used: await tx.attachments.spaceUsed(attachment.realmId) });
}

/** op `remove`: only the ID. */
export async function announceAttachmentRemoval(ctx: Ctx, tx: Tx, attachment: Attachment): Promise<void> {
  publish(ctx, tx, attachment, { op: 'remove', attachment: { id: attachment.id }, upload_space_used: await tx.attachments.spaceUsed(attachment.realmId) });
}

function publish(ctx: Ctx, tx: Tx, attachment: Attachment, body: DistributiveOmit<AttachmentEvent, 'type'>): void {
  publishOnCommit(ctx, tx, { realmId: attachment.realmId, userIds: [attachment.ownerId], event: { type: 'attachment', ...body } });
}
