/**
 * Linking uploads to messages (the reference's do_claim_attachments). The renderer lists the
 * `/user_uploads/…` links of a message in its realm; those naming a stored upload that the
 * sender may read are linked, so the message's readers may download them. Reading is enough,
 * not owning: a user may reshare a file they can see by linking it again, as in the reference.
 * A message's `has_attachment` (`has:attachment`) says whether it links any.
 */
import type { Ctx } from '../context.js';
import type { Attachment, Message, Tx, User } from '../storage/types.js';
import { canReadAttachment } from './access.js';
import { announceAttachment } from './attachment-events.js';

/** The stored uploads among `pathIds` that `sender` may link. */
export async function claimableUploads(tx: Tx, sender: User, pathIds: readonly string[]): Promise<Attachment[]> {
  const found = await tx.attachments.byPathIds(sender.realmId, pathIds);
  const claimable: Attachment[] = [];
  for (const attachment of found) if (await canReadAttachment(tx, sender, attachment)) claimable.push(attachment);
  return claimable;
}

/** Links uploads to a message; each owner gets an attachment `update` with the new message_ids. */
export async function linkUploads(ctx: Ctx, tx: Tx, message: Message, uploads: readonly Attachment[]): Promise<void> {
  if (uploads.length === 0) return;
  await tx.attachments.link(message.id, uploads.map((a) => a.id));
  for (const attachment of uploads) await announceAttachment(ctx, tx, 'update', attachment);
}

/** What a content edit did to the message's uploads. */
export interface RelinkResult {
  /** The message links an upload after the edit (`has_attachment`). */
  hasAttachment: boolean;
  /** The editor's uploads this edit left without any message (`detached_uploads`). */
  detached: Attachment[];
}

/**
 * Brings the message's links in line with its new content: links no longer in it go, new ones
 * are claimed as at send. Unlinked files stay (the client offers to delete detached ones).
 */
export async function relinkUploads(ctx: Ctx, tx: Tx, editor: User, message: Message, pathIds: readonly string[]): Promise<RelinkResult> {
  const wanted = new Set(pathIds);
  const linked: Attachment[] = [];
  for (const id of await tx.attachments.linkedTo([message.id])) {
    const attachment = await tx.attachments.byId(message.realmId, id);
    if (attachment) linked.push(attachment);
  }
  const dropped = linked.filter((a) => !wanted.has(a.pathId));
  const kept = new Set(linked.filter((a) => wanted.has(a.pathId)).map((a) => a.pathId));
  await tx.attachments.unlink(message.id, dropped.map((a) => a.id));
  for (const attachment of dropped) await announceAttachment(ctx, tx, 'update', attachment);
  const added = await claimableUploads(tx, editor, pathIds.filter((p) => !kept.has(p)));
  await linkUploads(ctx, tx, message, added);
  const links = await tx.attachments.messageIds(dropped.map((a) => a.id));
  const detached = dropped.filter((a) => a.ownerId === editor.id && (links.get(a.id) ?? []).length === 0);
  return { hasAttachment: added.length > 0 || kept.size > 0, detached };
}
