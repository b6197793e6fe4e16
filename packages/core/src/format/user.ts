import { canSeeDeliveryEmail } from '../access/users.js';
import type { Realm, User } from '../storage/types.js';
import { avatarUrl } from './avatar.js';
import type { ProfileData } from './profile-field.js';
import { ROLE, isAdmin, isGuest, isOwner } from '../access/roles.js';
import { realmHostname } from './realm-host.js';

export interface UserView {
  /** The requesting user; null for spectators. */
  viewer: User | null;
  clientGravatar: boolean;
  includeCustomProfileFields: boolean;
  /** Users' custom profile field values (profileDataByUser); a user missing has none. */
  profileData?: ReadonlyMap<number, ProfileData>;
}

/** A user's API email: the real address when everyone may see it, else a stable dummy address. */
export function apiEmail(realm: Realm, user: User): string {
  if (user.isBot || user.emailAddressVisibility === 1) return user.deliveryEmail;
  return `user${user.id}@${realmHostname(realm.url)}`;
}

/** The user record of API.md 2.2, as `viewer` may see it. */
export function formatUser(realm: Realm, user: User, view: UserView): Record<string, unknown> {
  const record: Record<string, unknown> = {
    user_id: user.id,
    email: apiEmail(realm, user),
    delivery_email: canSeeDeliveryEmail(view.viewer, user) ? user.deliveryEmail : null,
    full_name: user.fullName,
    avatar_url: avatarUrl(realm, user, view.clientGravatar),
    avatar_version: user.avatarVersion,
    date_joined: user.dateJoined,
    timezone: user.timezone,
    role: user.role,
    is_active: user.isActive,
    is_owner: isOwner(user),
    is_admin: isAdmin(user),
    is_guest: isGuest(user),
    is_bot: user.isBot,
    bot_type: user.isBot ? user.botType : null,
    is_imported_stub: user.isImportedStub,
  };
  if (!view.viewer) hidePersonalDetails(record);
  if (user.isBot) record.bot_owner_id = user.botOwnerId;
  if (user.isSystemBot) record.is_system_bot = true;
  if (view.includeCustomProfileFields && !user.isBot) record.profile_data = view.profileData?.get(user.id) ?? {};
  return record;
}

/**
 * Spectators get no time zone and only the day of date_joined, as in the reference: neither
 * helps someone who is not logged in, and both say something about a person.
 */
function hidePersonalDetails(record: Record<string, unknown>): void {
  delete record.timezone;
  record.date_joined = String(record.date_joined).slice(0, 10);
}

/** What the reference names a user the viewer may not access. */
export const INACCESSIBLE_USER_NAME = 'Unknown user';

/**
 * The "Unknown user" placeholder the reference sends in place of a user the viewer may not
 * access (can_access_all_users_group): only the user ID is real. An active member who joined
 * at the UNIX epoch, with the dummy email and the server's unknown-user avatar.
 */
export function formatInaccessibleUser(realm: Realm, userId: number): Record<string, unknown> {
  return {
    user_id: userId,
    email: `user${userId}@${realmHostname(realm.url)}`,
    delivery_email: null,
    full_name: INACCESSIBLE_USER_NAME,
    avatar_url: `${realm.url}/static/images/unknown-user-avatar.png`,
    avatar_version: 1,
    date_joined: '1970-01-01T00:00:00+00:00',
    timezone: '',
    role: ROLE.member,
    is_active: true,
    is_owner: false,
    is_admin: false,
    is_guest: false,
    is_bot: false,
    is_imported_stub: false,
    profile_data: {},
  };
}
