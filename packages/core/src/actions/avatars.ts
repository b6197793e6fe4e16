/**
 * POST and DELETE /users/me/avatar (the reference's set_avatar_backend and delete_avatar_backend):
 * a user's own uploaded avatar (source U). Each change bumps avatar_version, so every URL names
 * one image for good, and sends the realm_user avatar update (applyUserChange) after commit.
 * Administrators change other users' avatars only through bots, as in the reference.
 */
import { err, ok, type Result } from 'neverthrow';
import { isAdmin } from '../access/roles.js';
import { deleteAvatarImages, putAvatarImages } from '../avatars/blobs.js';
import { avatarImages } from '../avatars/images.js';
import type { Ctx } from '../context.js';
import { type ApiError, badRequest } from '../errors.js';
import { avatarUrl } from '../format/avatar.js';
import { type Actor, userOperation } from '../operation.js';
import { DeleteAvatarParams, UploadAvatarParams } from '../schemas/avatars.js';
import { uploadedFiles } from '../schemas/upload.js';
import { realmSetting } from '../settings/realm-settings.js';
import type { Realm, User } from '../storage/types.js';
import { transactionAs } from '../transaction.js';
import { applyUserChange } from '../users/changes.js';

/** avatar_changes_disabled (the server's or the realm's): only administrators may change avatars then. */
function checkMayChangeAvatar(ctx: Ctx, actor: Actor): Result<void, ApiError> {
  const disabled = ctx.config.avatarChangesDisabled || realmSetting(actor.realm, 'avatar_changes_disabled');
  return disabled && !isAdmin(actor.user) ? err(badRequest('Avatar changes are disabled in this organization.')) : ok(undefined);
}

/**
 * POST /users/me/avatar with one image (PNG, GIF, JPEG or WebP, recognised by its bytes) of at
 * most max_avatar_file_size_mib. Returns the new `avatar_url`.
 */
export const doUploadAvatar = userOperation(UploadAvatarParams, async (ctx, requester: Actor, params) => {
  const files = uploadedFiles(params);
  if (files.length !== 1) return err(badRequest('You must upload exactly one avatar.'));
  const allowed = checkMayChangeAvatar(ctx, requester);
  if (allowed.isErr()) return err(allowed.error);
  const limitMib = ctx.config.maxAvatarFileSizeMib;
  if (files[0]!.bytes.byteLength > limitMib * 1024 * 1024) {
    return err(badRequest(`Uploaded file is larger than the allowed limit of ${limitMib} MiB`));
  }
  // Decoding and resizing is the slow part: done before the transaction, on bounded input.
  const images = await avatarImages(files[0]!.bytes);
  if (images.isErr()) return err(images.error);

  let written: { realm: Realm; user: User } | undefined;
  let committed = false;
  try {
    const result = await transactionAs(ctx, requester, async (tx, actor) => {
      const recheck = checkMayChangeAvatar(ctx, actor);
      if (recheck.isErr()) return err(recheck.error);
      const before = actor.user;
      const next: User = { ...before, avatarSource: 'U', avatarVersion: before.avatarVersion + 1 };
      // The files' names come from the version assigned here, so they are written here: two
      // resized PNGs of bounded size, durable before the row that points at them commits.
      written = { realm: actor.realm, user: next };
      await putAvatarImages(ctx, actor.realm, next, images.value);
      const after = await applyUserChange(ctx, tx, actor.realm, before, { avatarSource: 'U', avatarVersion: next.avatarVersion });
      return ok({ realm: actor.realm, before, after });
    });
    committed = result.isOk();
    if (result.isErr()) return err(result.error);
    const { realm, before, after } = result.value;
    await forgetReplaced(ctx, realm, before);
    return ok({ avatar_url: fullAvatarUrl(realm, after) });
  } finally {
    if (!committed && written) await deleteAvatarImages(ctx, written.realm, written.user);
  }
});

/**
 * DELETE /users/me/avatar: back to the realm's default source (realm_default_avatar_source).
 * Idempotent since FL 443: without an uploaded avatar nothing changes and nothing is sent.
 * Returns the `avatar_url` the user has now.
 */
export const doDeleteAvatar = userOperation(DeleteAvatarParams, async (ctx, requester: Actor) => {
  const result = await transactionAs(ctx, requester, async (tx, actor) => {
    const allowed = checkMayChangeAvatar(ctx, actor);
    if (allowed.isErr()) return err(allowed.error);
    const before = actor.user;
    if (before.avatarSource !== 'U') return ok({ realm: actor.realm, before, after: before });
    const patch = { avatarSource: actor.realm.defaultAvatarSource, avatarVersion: before.avatarVersion + 1 };
    return ok({ realm: actor.realm, before, after: await applyUserChange(ctx, tx, actor.realm, before, patch) });
  });
  if (result.isErr()) return err(result.error);
  const { realm, before, after } = result.value;
  if (after !== before) await forgetReplaced(ctx, realm, before);
  return ok({ avatar_url: fullAvatarUrl(realm, after) });
});

/** The URL the reference answers with: always a real one (only client_gravatar makes avatarUrl null). */
const fullAvatarUrl = (realm: Realm, user: User) => avatarUrl(realm, user, false) as string;

/**
 * Removes the images of an uploaded avatar that a committed change replaced. Best effort: the
 * change stands whatever happens here, and a leftover image is only unreachable bytes (its URL
 * names a version no user has any more).
 */
async function forgetReplaced(ctx: Ctx, realm: Realm, before: User): Promise<void> {
  if (before.avatarSource !== 'U') return;
  await deleteAvatarImages(ctx, realm, before).catch(() => undefined);
}
