/**
 * Reading avatars: the uploaded images at the URLs format/avatar.ts gives for source U, and the
 * reference's /avatar/{user_id_or_email} redirect to a user's current avatar URL.
 */
import { err, ok } from 'neverthrow';
import { checkCanAccessUser } from '../access/user-access.js';
import { avatarBlobKey } from '../avatars/blobs.js';
import { notFound, unauthorized } from '../errors.js';
import { avatarUrl, gravatarUrl, identiconUrl } from '../format/avatar.js';
import { formatInaccessibleUser } from '../format/user.js';
import { type Caller, spectatorOperation } from '../operation.js';
import { AvatarImageParams, AvatarRedirectParams } from '../schemas/avatars.js';
import type { Realm, User } from '../storage/types.js';
import type { ServedFile } from '../uploads/served-file.js';
import { findUser } from './users.js';

/** The names format/avatar.ts gives uploaded avatars: an MD5 in hex, the medium size, PNG. */
const AVATAR_FILE = /^[0-9a-f]{32}(-medium)?\.png$/;

/** Logged-in users, and spectators where the realm lets them in (as the reference's avatar views). */
const mayView = (caller: Caller) => caller.user !== null || caller.realm.webPublicAccessEnabled;

/**
 * GET /user_avatars/{realm_id}/{file} (outside /api/v1): an uploaded avatar image, 100px or
 * `-medium` 500px. Only the realm of the Host is served; a name that is not an avatar's, or
 * whose version is no user's any more, is not found. The URL names one image for good, so it
 * may be cached for a year.
 */
export const getAvatarImage = spectatorOperation(AvatarImageParams, async (ctx, caller, params) => {
  if (!mayView(caller)) return err(unauthorized());
  if (params.realm_id !== String(caller.realm.id) || !AVATAR_FILE.test(params.file)) return err(notFound());
  const bytes = await ctx.uploads.get(avatarBlobKey(caller.realm.id, params.file));
  if (!bytes) return err(notFound());
  return ok<ServedFile>({ contentType: 'image/png', bytes, versioned: true });
});

/** Where a redirect sends the client. */
export interface Redirect {
  location: string;
}

/**
 * GET /avatar/{user_id_or_email}[/medium]: a redirect to the user's avatar URL, as the reference.
 * Spectators (where the realm admits them) may name users by ID only. A user the caller may not
 * access gets the unknown-user image; an ID or email that names nobody, the external service's
 * image for that text, as the reference treats it as a new address.
 */
const avatarRedirect = (medium: boolean) =>
  spectatorOperation(AvatarRedirectParams, async (ctx, caller, params) => {
    if (!mayView(caller)) return err(unauthorized());
    const key = params.user_id_or_email.trim();
    const byId = /^[0-9]+$/.test(key);
    if (!caller.user && !byId) return err(unauthorized());
    const location = await ctx.storage.read(async (tx) => {
      const target = caller.user ? await findUser(tx, { realm: caller.realm, user: caller.user }, key) : await tx.users.byId(caller.realm.id, Number(key));
      if (!target) return gravatarUrl(key, 1, medium);
      if (caller.user && (await checkCanAccessUser(tx, caller.realm, caller.user, target)).isErr()) {
        return formatInaccessibleUser(caller.realm, target.id).avatar_url as string;
      }
      return currentAvatarUrl(caller.realm, target, medium);
    });
    return ok<Redirect>({ location });
  });

/** GET /avatar/{user_id_or_email}: to the 100px avatar. */
export const getAvatarRedirect = avatarRedirect(false);

/** GET /avatar/{user_id_or_email}/medium: to the 500px avatar. */
export const getMediumAvatarRedirect = avatarRedirect(true);

/** A user's avatar URL; source J's URL is this redirect itself, so it goes to a generated identicon instead. */
function currentAvatarUrl(realm: Realm, user: User, medium: boolean): string {
  return user.avatarSource === 'J' ? identiconUrl(realm, user, medium) : avatarUrl(realm, user, false, medium)!;
}
