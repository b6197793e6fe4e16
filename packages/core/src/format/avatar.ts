import { createHash } from 'node:crypto';
import type { Realm, User } from '../storage/types.js';

/** Hashes already computed: every formatted message and user hashes its avatar's key again. */
const hashes = new Map<string, string>();
/** Entries kept before the memo starts afresh: a realm's active senders, many times over. */
const HASHES_KEPT = 10_000;

function md5(text: string): string {
  let hash = hashes.get(text);
  if (hash === undefined) {
    hash = createHash('md5').update(text).digest('hex');
    if (hashes.size >= HASHES_KEPT) hashes.clear();
    hashes.set(text, hash);
  }
  return hash;
}

/** The external avatar service's URL for an email (source G). */
export function gravatarUrl(email: string, version: number, medium = false): string {
  const size = medium ? '&s=500' : '';
  return `https://secure.gravatar.com/avatar/${md5(email.toLowerCase())}?d=identicon${size}&version=${version}`;
}

/**
 * A generated identicon for a user of avatar source J, from the external service: where
 * /avatar/{user_id} sends such users' `avatar_url`, this server storing no generated image.
 * Derived from the realm and user IDs, not the email, so it reveals no address.
 */
export function identiconUrl(realm: Pick<Realm, 'uuid'>, user: Pick<User, 'id' | 'avatarVersion'>, medium = false): string {
  const size = medium ? '&s=500' : '';
  return `https://secure.gravatar.com/avatar/${md5(`${realm.uuid}:${user.id}`)}?d=identicon&f=y${size}&version=${user.avatarVersion}`;
}

/**
 * A user's avatar URL. Null under `clientGravatar` for avatars on the external service whose
 * email the client can hash itself (visibility "everyone"), as the reference does.
 */
export function avatarUrl(realm: Realm, user: User, clientGravatar: boolean, medium = false): string | null {
  switch (user.avatarSource) {
    case 'G':
      if (clientGravatar && user.emailAddressVisibility === 1) return null;
      return gravatarUrl(user.deliveryEmail, user.avatarVersion, medium);
    case 'J':
      return `${realm.url}/avatar/${user.id}${medium ? '/medium' : ''}?version=${user.avatarVersion}`;
    case 'U':
      return `${realm.url}/user_avatars/${realm.id}/${uploadedAvatarFile(realm, user, medium)}?version=${user.avatarVersion}`;
  }
}

/**
 * The file name of an uploaded avatar (source U) in its URL: one name per version, so that a
 * URL never changes content and may be cached for good. The 100px image, or the 500px medium one.
 */
export function uploadedAvatarFile(realm: Pick<Realm, 'uuid'>, user: Pick<User, 'id' | 'avatarVersion'>, medium = false): string {
  return `${md5(`${realm.uuid}:${user.id}:${user.avatarVersion}`)}${medium ? '-medium' : ''}.png`;
}
