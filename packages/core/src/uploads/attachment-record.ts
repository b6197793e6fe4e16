/** The attachment record of GET /attachments, attachment events and `detached_uploads` (SHAPES.md 5.7). */
import { readableIds } from '../messages/access.js';
import type { Attachment, Tx, User } from '../storage/types.js';

/** An uploaded file as its owner sees it in GET /attachments. */
export interface AttachmentRecord {
  id: number;
  name: string;
  path_id: string;
  size: number;
  /** Unix seconds (FL 443). */
  create_time: number;
  /** Messages linking the file, whoever sent them (FL 472). */
  message_ids: number[];
}

export const formatAttachment = (a: Attachment, messageIds: readonly number[]): AttachmentRecord => ({
  id: a.id,
  name: a.fileName,
  path_id: a.pathId,
  size: a.size,
  create_time: a.createTime,
  message_ids: [...messageIds],
});

/**
 * The owner's records of their uploads, with the messages linking each as stored now. A file
 * reshared where the owner cannot read (another user's direct message, a private channel) is
 * linked there too; those message IDs are left out, as nothing of a conversation reaches a
 * user outside it.
 */
export async function attachmentRecords(tx: Tx, owner: User, attachments: readonly Attachment[]): Promise<AttachmentRecord[]> {
  const links = await tx.attachments.messageIds(attachments.map((a) => a.id));
  const linked = [...new Set([...links.values()].flat())];
  const readable = new Set(linked.length === 0 ? [] : await readableIds(tx, owner, await tx.messages.byIds(owner.realmId, linked)));
  return attachments.map((a) => formatAttachment(a, (links.get(a.id) ?? []).filter((id) => readable.has(id))));
}
