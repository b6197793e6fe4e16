/** Who may download an upload (the reference's validate_attachment_request). */
import { readableIds } from '../messages/access.js';
import type { Attachment, Tx, User } from '../storage/types.js';

/**
 * The owner, and anyone who may read a message linking the file: its recipients, and readers
 * of the channel's history where the channel's history is open to them (public channels for
 * members, shared-history private channels for subscribers).
 */
export async function canReadAttachment(tx: Tx, user: User, attachment: Attachment): Promise<boolean> {
  if (attachment.realmId !== user.realmId) return false;
  if (attachment.ownerId === user.id) return true;
  const messageIds = (await tx.attachments.messageIds([attachment.id])).get(attachment.id) ?? [];
  if (messageIds.length === 0) return false;
  const messages = await tx.messages.byIds(user.realmId, messageIds);
  return (await readableIds(tx, user, messages)).length > 0;
}
