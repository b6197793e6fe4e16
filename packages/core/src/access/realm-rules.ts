/**
 * Realm-level permissions: whether a user is in the group a realm permission setting names.
 * Guests are never in a setting the reference marks allow_everyone_group=False; those that may
 * include everyone are listed here.
 */
import type { Realm, User } from '../storage/types.js';
import { realmGroupSetting, type RealmGroupSettingName } from '../settings/realm-settings.js';
import { isGuest } from './roles.js';
import { inGroupSetting } from './system-groups.js';

/** Settings whose value may include guests (the reference's allow_everyone_group=True). */
const GUESTS_ALLOWED: ReadonlySet<RealmGroupSettingName> = new Set<RealmGroupSettingName>([
  'can_access_all_users_group',
  'can_delete_own_message_group',
  'can_move_messages_between_topics_group',
  'can_resolve_topics_group',
  'can_summarize_topics_group',
  'direct_message_initiator_group',
  'direct_message_permission_group',
]);

/** Whether the user holds the realm permission `name`. */
export function hasRealmPermission(user: Pick<User, 'id' | 'role'>, realm: Pick<Realm, 'settings'>, name: RealmGroupSettingName): boolean {
  if (isGuest(user) && !GUESTS_ALLOWED.has(name)) return false;
  return inGroupSetting(user, realmGroupSetting(realm, name));
}
