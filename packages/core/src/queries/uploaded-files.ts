import { err, ok, type Result } from 'neverthrow';
import type { Ctx } from '../context.js';
import { accessDenied, type ApiError, badRequest, notFound } from '../errors.js';
import { type Actor, publicOperation, userOperation } from '../operation.js';
import { TemporaryFileParams, UploadedFileParams } from '../schemas/attachments.js';
import type { Attachment } from '../storage/types.js';
import { canReadAttachment } from '../uploads/access.js';
import { isInlineType } from '../uploads/content-type.js';
import type { ServedFile } from '../uploads/served-file.js';
import { pathIdOfToken, temporaryToken } from '../uploads/temporary-url.js';

const fileNotFound = () => notFound('File not found.');

/**
 * The upload at /user_uploads/{realm_id}/{filename…} if `actor` may read it: its owner and
 * whoever may read a message linking it (uploads/access.ts). As in the reference's serve_file,
 * a file that does not exist (or is another realm's) is a 404 and one the caller may not read a 403.
 */
async function readableAttachment(ctx: Ctx, actor: Actor, realmId: string, filename: string): Promise<Result<Attachment, ApiError>> {
  if (realmId !== String(actor.realm.id)) return err(fileNotFound());
  const pathId = `${realmId}/${filename}`;
  const found = await ctx.storage.read(async (tx) => {
    const attachment = await tx.attachments.byPathId(actor.realm.id, pathId);
    if (!attachment) return { kind: 'missing' as const };
    return (await canReadAttachment(tx, actor.user, attachment)) ? { kind: 'found' as const, attachment } : { kind: 'denied' as const };
  });
  if (found.kind === 'missing') return err(fileNotFound());
  if (found.kind === 'denied') return err(accessDenied('You are not authorized to view this file.'));
  return ok(found.attachment);
}

async function served(ctx: Ctx, attachment: Attachment): Promise<Result<ServedFile, ApiError>> {
  const bytes = await ctx.uploads.get(attachment.pathId);
  if (!bytes) return err(fileNotFound());
  return ok({
    contentType: attachment.contentType,
    bytes,
    upload: { fileName: attachment.fileName, inline: isInlineType(attachment.contentType) },
  });
}

/** GET /user_uploads/{realm_id}/{filename…} (outside /api/v1): the file itself. */
export const getUploadedFile = userOperation(UploadedFileParams, async (ctx, actor: Actor, params) => {
  const attachment = await readableAttachment(ctx, actor, params.realm_id, params.filename);
  return attachment.isErr() ? err(attachment.error) : served(ctx, attachment.value);
});

/**
 * GET /api/v1/user_uploads/{realm_id}/{filename…} (FL 1): a URL for the same file that works
 * without credentials for 60 seconds, `/user_uploads/temporary/{token}/{name}`, relative to the
 * realm, as the reference answers it.
 */
export const getFileTemporaryUrl = userOperation(UploadedFileParams, async (ctx, actor: Actor, params) => {
  const attachment = await readableAttachment(ctx, actor, params.realm_id, params.filename);
  if (attachment.isErr()) return err(attachment.error);
  const name = attachment.value.pathId.split('/').pop()!;
  return ok({ url: `/user_uploads/temporary/${temporaryToken(ctx, attachment.value.pathId)}/${encodeURIComponent(name)}` });
});

/**
 * GET /user_uploads/temporary/{token}/{filename} (outside /api/v1, no credentials): the file a
 * temporary URL names, while the URL lasts. The reference's texts: "Invalid token" for a forged
 * or expired one, "Invalid filename" for a name that is not the token's file.
 */
export const getTemporaryFile = publicOperation(TemporaryFileParams, async (ctx, caller, params) => {
  const pathId = pathIdOfToken(ctx, params.token);
  if (pathId === null) return err(badRequest('Invalid token'));
  if (pathId.split('/').pop() !== params.filename) return err(badRequest('Invalid filename'));
  const attachment = await ctx.storage.read((tx) => tx.attachments.byPathId(Number(pathId.split('/')[0]), pathId));
  if (!attachment || attachment.realmId !== caller.realm.id) return err(fileNotFound());
  return served(ctx, attachment);
});
