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

/**
 * A user as the API describes one (API.md 2.2): GET /users, GET /users/{id}, register's
 * realm_users, realm_user events. Spectators see no `timezone` and only the day of `date_joined`.
 */
export interface ApiUser {
  user_id: number;
  /** The real address when the user's email visibility lets everyone see it, else a dummy one. */
  email: string;
  /** The real address, or null when the viewer may not see it. */
  delivery_email: string | null;
  full_name: string;
  /** null when the client computes Gravatar URLs itself (`client_gravatar`). */
  avatar_url: string | null;
  avatar_version: number;
  date_joined: string;
  timezone?: string;
  /** 100 owner, 200 administrator, 300 moderator, 400 member, 600 guest. */
  role: number;
  is_active: boolean;
  is_owner: boolean;
  is_admin: boolean;
  is_guest: boolean;
  is_bot: boolean;
  /** Absent on the "Unknown user" placeholder. */
  bot_type?: number | null;
  is_imported_stub: boolean;
  /** Bots only. */
  bot_owner_id?: number | null;
  /** Present (true) only for the server's own bots. */
  is_system_bot?: true;
  /** Present when custom profile fields were asked for; keyed by field ID. */
  profile_data?: ProfileData;
}

/** The user record of API.md 2.2, as `viewer` may see it. */
export function formatUser(realm: Realm, user: User, view: UserView): ApiUser {
  const record: ApiUser = {
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
function hidePersonalDetails(record: ApiUser): void {
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
export function formatInaccessibleUser(realm: Realm, userId: number): ApiUser {
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
