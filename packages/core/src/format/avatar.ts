import { createHash } from 'node:crypto';
import type { Realm, User } from '../storage/types.js';

const md5 = (text: string) => createHash('md5').update(text).digest('hex');

/** The external avatar service's URL for an email (source G). */
export function gravatarUrl(email: string, version: number, medium = false): string {
  const size = medium ? '&s=500' : '';
  return `https://secure.gravatar.com/avatar/${md5(email.toLowerCase())}?d=identicon${size}&version=${version}`;
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
    case 'U': {
      const file = md5(`${realm.uuid}:${user.id}:${user.avatarVersion}`);
      return `${realm.url}/user_avatars/${realm.id}/${file}${medium ? '-medium' : ''}.png?version=${user.avatarVersion}`;
    }
  }
}
