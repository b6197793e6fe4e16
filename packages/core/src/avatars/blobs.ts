/**
 * Where uploaded avatars' images live in the context's blob store: `avatars/{realm_id}/{file}`,
 * `file` being the name in the avatar's URL (format/avatar.ts), so that serving a URL is one
 * lookup. Attachment keys start with a realm ID, so the two never collide.
 */
import type { Ctx } from '../context.js';
import { uploadedAvatarFile } from '../format/avatar.js';
import type { Realm, User } from '../storage/types.js';
import type { AvatarImages } from './images.js';

/** The blob key of an avatar file of a realm. */
export const avatarBlobKey = (realmId: number, file: string) => `avatars/${realmId}/${file}`;

/** Both keys of a user's uploaded avatar at its current version. */
function keysOf(realm: Realm, user: User): [string, string] {
  return [avatarBlobKey(realm.id, uploadedAvatarFile(realm, user)), avatarBlobKey(realm.id, uploadedAvatarFile(realm, user, true))];
}

/** Stores the images of `user`'s avatar at its (new) version; resolves once both are durable. */
export async function putAvatarImages(ctx: Ctx, realm: Realm, user: User, images: AvatarImages): Promise<void> {
  const [small, medium] = keysOf(realm, user);
  await ctx.uploads.put(small, images.small);
  await ctx.uploads.put(medium, images.medium);
}

/** Removes the images of `user`'s avatar at its version; missing ones are not an error. */
export async function deleteAvatarImages(ctx: Ctx, realm: Realm, user: User): Promise<void> {
  for (const key of keysOf(realm, user)) await ctx.uploads.delete(key);
}
