/**
 * Group-setting values (SHAPES.md 1.3) over the reference's role-based system groups and the
 * realm's user-defined groups. Each system group has a fixed ID in every realm (the order in
 * which the reference creates them) and membership follows the user's role; user-defined
 * groups have IDs above them, and a user's membership in them travels with the user
 * (`GroupMember.userGroupIds`, loaded by access/group-membership.ts) so that the checks here
 * stay pure and need no storage.
 */
import type { StoredAnonymousGroup, StoredGroupSetting, User } from '../storage/types.js';

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

/**
 * Whoever a group setting is checked for: a role, and the user-defined groups the user belongs
 * to (directly or through subgroups). A user read without them is in no user-defined group.
 */
export type GroupMember = Pick<User, 'id' | 'role'> & { readonly userGroupIds?: ReadonlySet<number> };

/** Whether the name or ID is one of the system groups. */
export const isSystemGroupId = (id: number) => Number.isSafeInteger(id) && id >= 1 && id <= SYSTEM_GROUPS.length;

/** The system group with that API ID, if it is one. */
export const systemGroupName = (id: number): SystemGroupName | undefined => (isSystemGroupId(id) ? SYSTEM_GROUPS[id - 1] : undefined);

/** Whether the user is in a named group: a system group by name, a user-defined one by ID. */
function inNamedGroup(user: GroupMember, group: string | number): boolean {
  return typeof group === 'string' ? inSystemGroup(user, group) : user.userGroupIds?.has(group) === true;
}

/** Whether the user is in the group a setting names: a named group, or an anonymous group. */
export function inGroupSetting(user: GroupMember, setting: StoredGroupSetting): boolean {
  if (typeof setting !== 'object') return inNamedGroup(user, setting);
  return setting.direct_members.includes(user.id) || setting.direct_subgroups.some((group) => inNamedGroup(user, group));
}

/** A named group's API ID. */
const groupId = (group: string | number) => (typeof group === 'string' ? systemGroupId(group) : group);

/** An anonymous group-setting value as the API sends it. */
export interface ApiAnonymousGroup {
  direct_members: number[];
  direct_subgroups: number[];
}

/** A setting as the API sends it: a group ID, or `{direct_members, direct_subgroups}` of IDs. */
export function groupSettingForApi(setting: StoredGroupSetting): number | ApiAnonymousGroup {
  if (typeof setting !== 'object') return groupId(setting);
  return { direct_members: [...setting.direct_members], direct_subgroups: setting.direct_subgroups.map(groupId) };
}

/** The stored form of a group ID: system groups by name, user-defined groups by ID. */
export const storedGroup = (id: number): string | number => systemGroupName(id) ?? id;

/** The stored form of an anonymous group given in API IDs. */
export const storedAnonymousGroup = (value: ApiAnonymousGroup): StoredAnonymousGroup => ({
  direct_members: [...value.direct_members],
  direct_subgroups: value.direct_subgroups.map(storedGroup),
});
