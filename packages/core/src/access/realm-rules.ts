/**
 * Realm-level permissions: whether a user is in the group a realm permission setting names.
 * Guests are never in a setting the reference marks allow_everyone_group=False
 * (settings/realm-group-permissions.ts).
 */
import type { Realm } from '../storage/types.js';
import { REALM_GROUP_PERMISSIONS } from '../settings/realm-group-permissions.js';
import { realmGroupSetting, type RealmGroupSettingName } from '../settings/realm-settings.js';
import { isGuest } from './roles.js';
import { type GroupMember, inGroupSetting } from './system-groups.js';

/** Whether the user holds the realm permission `name`. */
export function hasRealmPermission(user: GroupMember, realm: Pick<Realm, 'settings'>, name: RealmGroupSettingName): boolean {
  if (isGuest(user) && !REALM_GROUP_PERMISSIONS[name].allowEveryone) return false;
  return inGroupSetting(user, realmGroupSetting(realm, name));
}
