/**
 * A user group's own permission settings (the reference's NamedUserGroup.GROUP_PERMISSION_SETTINGS):
 * which groups each may name, and its default. A new group's creator manages it and adds
 * members; everyone may mention it and leave it; nobody else joins or removes members. System
 * groups have `role:nobody` for every setting and cannot be edited.
 */
import { systemGroupId } from '../access/system-groups.js';
import type { StoredGroupSetting, StoredUserGroup } from '../storage/types.js';
import type { GroupPermissionConfig } from './realm-group-permissions.js';

export const USER_GROUP_SETTINGS = [
  'can_add_members_group',
  'can_join_group',
  'can_leave_group',
  'can_manage_group',
  'can_mention_group',
  'can_remove_members_group',
] as const;

export type UserGroupSettingName = (typeof USER_GROUP_SETTINGS)[number];

const config = (allowEveryone: boolean): GroupPermissionConfig => ({ requireSystemGroup: false, allowInternet: false, allowNobody: true, allowEveryone });

/** allow_everyone_group per setting: only leaving and mentioning may be open to guests. */
export const USER_GROUP_PERMISSIONS: Record<UserGroupSettingName, GroupPermissionConfig> = {
  can_add_members_group: config(false),
  can_join_group: config(false),
  can_leave_group: config(true),
  can_manage_group: config(false),
  can_mention_group: config(true),
  can_remove_members_group: config(false),
};

/** The "group_creator" default: an anonymous group of the creator alone (nobody when unknown). */
const creatorGroup = (creatorId: number | null): StoredGroupSetting =>
  creatorId === null ? 'role:nobody' : { direct_members: [creatorId], direct_subgroups: [] };

/** The settings a new group starts with, before the creator's choices. */
export function defaultUserGroupSettings(creatorId: number | null): Record<UserGroupSettingName, StoredGroupSetting> {
  return {
    can_add_members_group: creatorGroup(creatorId),
    can_join_group: 'role:nobody',
    can_leave_group: 'role:everyone',
    can_manage_group: creatorGroup(creatorId),
    can_mention_group: 'role:everyone',
    can_remove_members_group: 'role:nobody',
  };
}

/** A stored group's setting, its default when the stored map has none (groups of before migration 22). */
export function userGroupSetting(group: Pick<StoredUserGroup, 'settings' | 'creatorId'>, name: UserGroupSettingName): StoredGroupSetting {
  return group.settings[name] ?? defaultUserGroupSettings(group.creatorId)[name];
}

/** Every system group's setting value: `role:nobody` (the reference's default_for_system_groups). */
export const SYSTEM_GROUP_SETTING_ID = systemGroupId('role:nobody');
