import { canSeeDeliveryEmail } from '../access/users.js';
import type { Realm, User } from '../storage/types.js';
import { avatarUrl } from './avatar.js';
import type { ProfileData } from './profile-field.js';

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
  return `user${user.id}@${new URL(realm.url).hostname}`;
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
    is_owner: user.role === 100,
    is_admin: user.role <= 200,
    is_guest: user.role === 600,
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
