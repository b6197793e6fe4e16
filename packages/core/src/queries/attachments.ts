import { ok } from 'neverthrow';
import { type Actor, userOperation } from '../operation.js';
import { GetAttachmentsParams } from '../schemas/attachments.js';
import { attachmentRecords } from '../uploads/attachment-record.js';

/**
 * GET /attachments (SHAPES.md 6.17): the caller's uploads, linked or not, and the bytes the
 * realm's uploads take (`upload_space_used` is realm-wide, as in the reference).
 */
export const getAttachments = userOperation(GetAttachmentsParams, async (ctx, actor: Actor) =>
  ok(
    await ctx.storage.read(async (tx) => ({
      attachments: await attachmentRecords(tx, actor.user, await tx.attachments.listByOwner(actor.realm.id, actor.user.id)),
      upload_space_used: await tx.attachments.spaceUsed(actor.realm.id),
    })),
  ),
);
