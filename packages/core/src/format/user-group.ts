import { countsAsMember, SYSTEM_GROUP_DESCRIPTIONS, systemDirectSubgroupIds, systemGroupDirectMembers } from '../access/system-group-members.js';
import { groupSettingForApi, SYSTEM_GROUPS, systemGroupId } from '../access/system-groups.js';
import { SYSTEM_GROUP_SETTING_ID, USER_GROUP_SETTINGS, type UserGroupSettingName, userGroupSetting } from '../settings/user-group-permissions.js';
import type { StoredUserGroup, User } from '../storage/types.js';
import type { ApiGroupSettingValue } from './channel.js';

/**
 * A user group (openapi `UserGroup`), as GET /user_groups, register's `realm_user_groups` and
 * user_group events carry it. The `can_*_group` settings say who may do what with the group.
 */
export interface ApiUserGroup extends Record<UserGroupSettingName, ApiGroupSettingValue> {
  id: number;
  /** A system group's name is its role, such as `role:members`. */
  name: string;
  description: string;
  /** Direct members that are active users. */
  members: number[];
  direct_subgroup_ids: number[];
  /** null for system groups. */
  creator_id: number | null;
  /** UNIX seconds; null for system groups. */
  date_created: number | null;
  is_system_group: boolean;
  deactivated: boolean;
}

/** The group settings of a group, by name. */
const groupSettings = (value: (name: UserGroupSettingName) => ApiGroupSettingValue) =>
  Object.fromEntries(USER_GROUP_SETTINGS.map((name) => [name, value(name)])) as Record<UserGroupSettingName, ApiGroupSettingValue>;

/**
 * A user group as the API sends it (openapi `UserGroup`, SHAPES.md 4.24): `members` are its
 * direct members that are active (FL 303), `direct_subgroup_ids` its direct subgroups.
 */
export function formatUserGroup(group: StoredUserGroup, activeUserIds: ReadonlySet<number>): ApiUserGroup {
  return {
    id: group.id,
    name: group.name,
    description: group.description,
    members: group.members.filter((id) => activeUserIds.has(id)),
    direct_subgroup_ids: [...group.subgroups],
    creator_id: group.creatorId,
    date_created: group.dateCreated,
    is_system_group: false,
    deactivated: group.deactivated,
    ...groupSettings((name) => groupSettingForApi(userGroupSetting(group, name))),
  };
}

/** The eight role-based system groups with their fixed IDs, members derived from roles (access/system-group-members.ts). */
export function formatSystemGroups(users: readonly User[]): ApiUserGroup[] {
  return SYSTEM_GROUPS.map((name) => ({
    id: systemGroupId(name),
    name,
    description: SYSTEM_GROUP_DESCRIPTIONS[name],
    members: systemGroupDirectMembers(name, users),
    direct_subgroup_ids: systemDirectSubgroupIds(name),
    // The reference's system groups have no recorded creator or date (openapi example).
    creator_id: null,
    date_created: null,
    is_system_group: true,
    deactivated: false,
    ...groupSettings(() => SYSTEM_GROUP_SETTING_ID),
  }));
}

/** GET /user_groups and register's `realm_user_groups`: system groups, then the realm's own (deactivated ones only when asked for), by ID. */
export function apiUserGroups(groups: readonly StoredUserGroup[], users: readonly User[], includeDeactivated: boolean): ApiUserGroup[] {
  const active = activeMemberSet(users);
  const own = groups.filter((g) => includeDeactivated || !g.deactivated).map((g) => formatUserGroup(g, active));
  return [...formatSystemGroups(users), ...own];
}

/** The users whose group memberships the API shows: active ones (FL 303), system bots aside. */
export const activeMemberSet = (users: readonly User[]): ReadonlySet<number> => new Set(users.filter(countsAsMember).map((u) => u.id));
