import { err, ok } from 'neverthrow';
import { accessDenied, notFound } from '../errors.js';
import { type Actor, userOperation } from '../operation.js';
import { UploadedFileParams } from '../schemas/attachments.js';
import { canReadAttachment } from '../uploads/access.js';
import { isInlineType } from '../uploads/content-type.js';
import type { ServedFile } from '../uploads/served-file.js';

const fileNotFound = () => notFound('File not found.');

/**
 * GET /user_uploads/{realm_id}/{filename…}: an uploaded file, for its owner and whoever may
 * read a message linking it (uploads/access.ts). As in the reference's serve_file, a file that
 * does not exist (or is another realm's) is a 404 and one the caller may not read a 403.
 */
export const getUploadedFile = userOperation(UploadedFileParams, async (ctx, actor: Actor, params) => {
  if (params.realm_id !== String(actor.realm.id)) return err(fileNotFound());
  const pathId = `${params.realm_id}/${params.filename}`;
  const found = await ctx.storage.read(async (tx) => {
    const attachment = await tx.attachments.byPathId(actor.realm.id, pathId);
    if (!attachment) return { kind: 'missing' as const };
    return (await canReadAttachment(tx, actor.user, attachment)) ? { kind: 'found' as const, attachment } : { kind: 'denied' as const };
  });
  if (found.kind === 'missing') return err(fileNotFound());
  if (found.kind === 'denied') return err(accessDenied('You are not authorized to view this file.'));
  const { attachment } = found;
  const bytes = await ctx.uploads.get(attachment.pathId);
  if (!bytes) return err(fileNotFound());
  return ok<ServedFile>({
    contentType: attachment.contentType,
    bytes,
    upload: { fileName: attachment.fileName, inline: isInlineType(attachment.contentType) },
  });
});
