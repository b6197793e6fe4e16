import { err, ok } from 'neverthrow';
import { badRequest } from '../errors.js';
import { type Actor, userOperation } from '../operation.js';
import { DeleteAttachmentParams } from '../schemas/attachments.js';
import { removeAttachment } from '../uploads/remove.js';
import { transactionAs } from '../transaction.js';

/**
 * DELETE /attachments/{attachment_id} (API.md 4.20, FACTS.md 6.9): the owner deletes an upload,
 * linked or not (messages keep their now-broken links, as in the reference). Unknown IDs,
 * other users' and other realms' files all answer "Invalid attachment".
 */
export const doDeleteAttachment = userOperation(DeleteAttachmentParams, async (ctx, requester: Actor, params) =>
  transactionAs(ctx, requester, async (tx, actor) => {
    const attachment = await tx.attachments.byId(actor.realm.id, params.attachment_id);
    if (!attachment || attachment.ownerId !== actor.user.id) return err(badRequest('Invalid attachment'));
    await removeAttachment(ctx, tx, attachment);
    return ok({});
  }),
);
