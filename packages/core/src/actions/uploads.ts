/**
 * POST /user_uploads (SHAPES.md 6.17): stores one file and its attachment row; the owner gets
 * an attachment `add` event. Only the owner can read it until a message links it.
 */
import { err, ok } from 'neverthrow';
import { unixSeconds } from '../clock.js';
import { badRequest } from '../errors.js';
import { type Actor, userOperation } from '../operation.js';
import { UploadFileParams } from '../schemas/attachments.js';
import { uploadedFiles } from '../schemas/upload.js';
import { announceAttachment } from '../uploads/attachment-events.js';
import { uploadContentType } from '../uploads/content-type.js';
import { newPathId, sanitizeFileName, uploadUrl } from '../uploads/path-id.js';
import { transactionAs } from './transaction.js';

export const doUploadFile = userOperation(UploadFileParams, async (ctx, requester: Actor, params) => {
  const files = uploadedFiles(params);
  if (files.length === 0) return err(badRequest('You must specify a file to upload'));
  if (files.length > 1) return err(badRequest('You may only upload one file at a time'));
  const file = files[0]!;
  const limitMib = ctx.config.maxFileUploadSizeMib;
  if (file.bytes.byteLength > limitMib * 1024 * 1024) {
    return err(badRequest(`Uploaded file is larger than the allowed limit of ${limitMib} MiB`));
  }
  const fileName = sanitizeFileName(file.filename);
  const pathId = newPathId(requester.realm.id, fileName, ctx.randomBytes);
  // The bytes first, outside the transaction (slow I/O must not hold the store); a row is only
  // written once they are durable, and the blob goes again if the row is not.
  await ctx.uploads.put(pathId, file.bytes);
  let stored = false;
  try {
    const result = await transactionAs(ctx, requester, async (tx, actor) => {
      const attachment = await tx.attachments.insert({
        realmId: actor.realm.id,
        ownerId: actor.user.id,
        pathId,
        fileName,
        size: file.bytes.byteLength,
        contentType: uploadContentType(file.contentType, fileName),
        createTime: unixSeconds(ctx.clock),
      });
      await announceAttachment(ctx, tx, 'add', attachment);
      const url = uploadUrl(pathId);
      // `uri` is the deprecated alias of `url` (FL 272); `filename` is the stored name (FL 285).
      return ok({ uri: url, url, filename: fileName });
    });
    stored = result.isOk();
    return result;
  } finally {
    if (!stored) await ctx.uploads.delete(pathId);
  }
});
