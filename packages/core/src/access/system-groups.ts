/**
 * Group-setting values (SHAPES.md 1.3) over the reference's role-based system groups. Until the
 * user-groups area exists, the system groups are the only named groups: each has a fixed ID in
 * every realm (the order in which the reference creates them), and membership follows the
 * user's role. `systemGroupId` is the one place the user-groups area will replace.
 */
import type { StoredGroupSetting, User } from '../storage/types.js';

export const SYSTEM_GROUPS = [
  'role:owners',
  'role:administrators',
  'role:moderators',
  'role:fullmembers',
  'role:members',
  'role:everyone',
  'role:internet',
  'role:nobody',
] as const;

export type SystemGroupName = (typeof SYSTEM_GROUPS)[number];

/** The API ID of a system group. */
export function systemGroupId(name: string): number {
  const index = SYSTEM_GROUPS.indexOf(name as SystemGroupName);
  if (index < 0) throw new Error(`unknown system group ${name}`);
  return index + 1;
}

/** The role bound of each system group: members have a role number at most this. */
const ROLE_BOUND: Record<SystemGroupName, number> = {
  'role:owners': 100,
  'role:administrators': 200,
  'role:moderators': 300,
  // No waiting period is configured, so every member is a full member.
  'role:fullmembers': 400,
  'role:members': 400,
  'role:everyone': 600,
  'role:internet': 600,
  'role:nobody': 0,
};

/** Whether a (logged-in) user is in the system group. */
export function inSystemGroup(user: Pick<User, 'role'>, name: string): boolean {
  const bound = ROLE_BOUND[name as SystemGroupName];
  return bound !== undefined && user.role <= bound;
}

/** Whether the user is in the group a setting names: a system group, or an anonymous group. */
export function inGroupSetting(user: Pick<User, 'id' | 'role'>, setting: StoredGroupSetting): boolean {
  if (typeof setting === 'string') return inSystemGroup(user, setting);
  return setting.direct_members.includes(user.id) || setting.direct_subgroups.some((name) => inSystemGroup(user, name));
}

/** A setting as the API sends it: a group ID, or `{direct_members, direct_subgroups}` of IDs. */
export function groupSettingForApi(setting: StoredGroupSetting): number | { direct_members: number[]; direct_subgroups: number[] } {
  if (typeof setting === 'string') return systemGroupId(setting);
  return { direct_members: [...setting.direct_members], direct_subgroups: setting.direct_subgroups.map(systemGroupId) };
}
