/**
 * POST /user_uploads (SHAPES.md 6.17): stores one file and its attachment row; the owner gets
 * an attachment `add` event. Only the owner can read it until a message links it. The file may
 * be buffered bytes or a stream (uploads/streamed-upload.ts); either way the size limit is
 * enforced as bytes arrive and the bytes go to the blob store chunk by chunk.
 */
import { err, ok } from 'neverthrow';
import { unixSeconds } from '../clock.js';
import { badRequest } from '../errors.js';
import { type Actor, userOperation } from '../operation.js';
import { UploadFileParams } from '../schemas/attachments.js';
import { announceAttachment } from '../uploads/attachment-events.js';
import { uploadContentType } from '../uploads/content-type.js';
import { newPathId, sanitizeFileName, uploadUrl } from '../uploads/path-id.js';
import { ByteLimitExceeded, ByteSourceFailed, inputFiles, isStreamedUpload, limitedChunks } from '../uploads/streamed-upload.js';
import { transactionAs } from '../transaction.js';

const oneFileOnly = () => badRequest('You may only upload one file at a time');

/** POST /user_uploads: stores one file and answers the URL a message links it by. */
export const doUploadFile = userOperation(UploadFileParams, async (ctx, requester: Actor, params) => {
  const files = inputFiles(params);
  if (files.length === 0) return err(badRequest('You must specify a file to upload'));
  if (files.length > 1) return err(oneFileOnly());
  const file = files[0]!;
  const limitMib = ctx.config.maxFileUploadSizeMib;
  const fileName = sanitizeFileName(file.filename);
  const pathId = newPathId(requester.realm.id, fileName, ctx.randomBytes);
  // The bytes first, outside the transaction (slow I/O must not hold the store); a row is only
  // written once they are durable, and the blob goes again if the row is not.
  let size: number;
  try {
    size = await ctx.uploads.putStream(pathId, limitedChunks(file, limitMib * 1024 * 1024));
  } catch (error) {
    if (error instanceof ByteLimitExceeded) return err(badRequest(`Uploaded file is larger than the allowed limit of ${limitMib} MiB`));
    if (error instanceof ByteSourceFailed) return err(badRequest('Could not read the uploaded file'));
    throw error;
  }
  let stored = false;
  try {
    // A streaming transport may only learn of a second file once the first has been read.
    if (isStreamedUpload(file) && file.moreFiles?.()) return err(oneFileOnly());
    const result = await transactionAs(ctx, requester, async (tx, actor) => {
      const attachment = await tx.attachments.insert({
        realmId: actor.realm.id,
        ownerId: actor.user.id,
        pathId,
        fileName,
        size,
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
