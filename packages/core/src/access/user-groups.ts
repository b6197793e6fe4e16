/**
 * Who may change a user group, and the checks every user-group change shares (the reference's
 * lib/user_groups.py access_user_group_for_update, check_user_group_name). Whoever is in the
 * realm's can_manage_all_groups, or in the group's can_manage_group, may do anything to it;
 * anyone else needs the group's own setting for the change (adding members, joining, …).
 * System groups are never changed through the API.
 */
import { err, ok, type Result } from 'neverthrow';
import { type ApiError, badRequest, insufficientPermission } from '../errors.js';
import type { Actor } from '../operation.js';
import { USER_GROUP_PERMISSIONS, type UserGroupSettingName, userGroupSetting } from '../settings/user-group-permissions.js';
import type { Realm, StoredUserGroup, Tx } from '../storage/types.js';
import { hasRealmPermission } from './realm-rules.js';
import { isGuest } from './roles.js';
import { type GroupMember, inGroupSetting, isSystemGroupId } from './system-groups.js';
import { exceedsCodePoints } from '../text/length.js';

/** Whether the user is in the group's setting (guests never, where the setting does not allow everyone). */
export function hasGroupSetting(user: GroupMember, group: StoredUserGroup, name: UserGroupSettingName): boolean {
  if (isGuest(user) && !USER_GROUP_PERMISSIONS[name].allowEveryone) return false;
  return inGroupSetting(user, userGroupSetting(group, name));
}

/** check_permission_for_managing_all_groups: can_manage_all_groups, or the group's can_manage_group. */
export const mayManageGroup = (user: GroupMember, realm: Pick<Realm, 'settings'>, group: StoredUserGroup) =>
  hasRealmPermission(user, realm, 'can_manage_all_groups') || hasGroupSetting(user, group, 'can_manage_group');

/** Whether the user may make the change the setting governs: as a manager, or through the setting itself. */
export const hasGroupPermission = (user: GroupMember, realm: Pick<Realm, 'settings'>, group: StoredUserGroup, name: UserGroupSettingName) =>
  mayManageGroup(user, realm, group) || hasGroupSetting(user, group, name);

/** The realm's group, or "Invalid user group" (unknown IDs and other realms' alike); system groups cannot be changed. */
export async function accessUserGroupForUpdate(tx: Tx, actor: Actor, id: number): Promise<Result<StoredUserGroup, ApiError>> {
  if (isSystemGroupId(id)) return err(insufficientPermission());
  const group = await tx.userGroups.get(actor.realm.id, id);
  return group ? ok(group) : err(badRequest('Invalid user group'));
}

const MAX_NAME_LENGTH = 100;
// Names that would read as another kind of group-setting or mention syntax.
const INVALID_NAME_PREFIXES = ['@', 'role:', 'user:', 'stream:', 'channel:'];

/** check_user_group_name, and the name free in the realm in any case (`self` may keep its own). */
export function checkGroupName(name: string, groups: readonly StoredUserGroup[], self?: number): Result<string, ApiError> {
  // The reference's wording for the empty name is not shown; this one follows its others.
  if (name.trim() === '') return err(badRequest('User group name cannot be empty.'));
  if (exceedsCodePoints(name, MAX_NAME_LENGTH)) return err(badRequest(`User group name cannot exceed ${MAX_NAME_LENGTH} characters.`));
  const prefix = INVALID_NAME_PREFIXES.find((p) => name.startsWith(p));
  if (prefix) return err(badRequest(`User group name cannot start with '${prefix}'.`));
  if (groups.some((g) => g.id !== self && g.name.toLowerCase() === name.toLowerCase())) return err(badRequest(`User group '${name}' already exists.`));
  return ok(name);
}

/** The requested users, each an active user of the realm, once each in the given order (user_ids_to_users). */
export async function activeUsersByIds(tx: Tx, realmId: number, ids: readonly number[]): Promise<Result<number[], ApiError>> {
  const users = new Map((await tx.users.list(realmId)).map((u) => [u.id, u]));
  const missing = ids.find((id) => !users.get(id)?.isActive || users.get(id)?.isSystemBot);
  return missing === undefined ? ok([...new Set(ids)]) : err(badRequest(`Invalid user ID: ${missing}`));
}
