/**
 * How the reference stores its role-based system groups (create_system_user_groups,
 * get_system_user_group_for_user): each user is a direct member of the group of their exact
 * role (guests of role:everyone), members also of role:fullmembers (no waiting period is
 * applied, as in system-groups.ts), and each group has the next higher one as its only
 * subgroup: role:administrators has role:owners, … role:internet has role:everyone.
 * role:nobody has neither members nor subgroups.
 */
import type { Role, User } from '../storage/types.js';
import { type SystemGroupName, systemGroupId } from './system-groups.js';
import { ROLE } from './roles.js';

export const SYSTEM_GROUP_DESCRIPTIONS: Record<SystemGroupName, string> = {
  'role:owners': 'Owners of this organization',
  'role:administrators': 'Administrators of this organization, including owners',
  'role:moderators': 'Moderators of this organization, including administrators',
  'role:fullmembers': 'Members of this organization, not including new accounts and guests',
  'role:members': 'Members of this organization, not including guests',
  'role:everyone': 'Everyone in this organization, including guests',
  'role:internet': 'Everyone on the Internet',
  'role:nobody': 'Nobody',
};

/** The system group each one contains directly. */
const DIRECT_SUBGROUP: Partial<Record<SystemGroupName, SystemGroupName>> = {
  'role:administrators': 'role:owners',
  'role:moderators': 'role:administrators',
  'role:fullmembers': 'role:moderators',
  'role:members': 'role:fullmembers',
  'role:everyone': 'role:members',
  'role:internet': 'role:everyone',
};

const ROLE_GROUP: Record<Role, SystemGroupName> = {
  [ROLE.owner]: 'role:owners',
  [ROLE.administrator]: 'role:administrators',
  [ROLE.moderator]: 'role:moderators',
  [ROLE.member]: 'role:members',
  [ROLE.guest]: 'role:everyone',
};

/** The system groups a user of the role is a direct member of. */
export function directSystemGroups(role: Role): SystemGroupName[] {
  return role === ROLE.member ? ['role:members', 'role:fullmembers'] : [ROLE_GROUP[role]];
}

/** The direct subgroup IDs of a system group. */
export function systemDirectSubgroupIds(name: SystemGroupName): number[] {
  const sub = DIRECT_SUBGROUP[name];
  return sub ? [systemGroupId(sub)] : [];
}

/** The system group and every system group below it (role:internet gives all but role:nobody). */
export function systemGroupClosure(name: SystemGroupName): SystemGroupName[] {
  const out: SystemGroupName[] = [name];
  for (let sub = DIRECT_SUBGROUP[name]; sub; sub = DIRECT_SUBGROUP[sub]) out.push(sub);
  return out;
}

/** Whether the user counts as a group member at all: active, and not a system bot (those belong to no realm). */
export const countsAsMember = (user: Pick<User, 'isActive' | 'isSystemBot'>) => user.isActive && !user.isSystemBot;

/** The direct members of a system group among the realm's users, ascending. */
export function systemGroupDirectMembers(name: SystemGroupName, users: readonly User[]): number[] {
  return users
    .filter((u) => countsAsMember(u) && directSystemGroups(u.role).includes(name))
    .map((u) => u.id)
    .sort((a, b) => a - b);
}
