/**
 * Loads what group-setting checks need to know about user-defined groups: which of the realm's
 * groups each user belongs to, directly or through subgroups (recursively, system subgroups by
 * role). Users read from storage carry none; the transaction wrapper and the channel audiences
 * attach them here, once per request, so that the checks in access/*-rules.ts stay pure
 * functions of the user.
 */
import type { StoredUserGroup, Tx, User } from '../storage/types.js';
import { countsAsMember, systemGroupClosure } from './system-group-members.js';
import { type GroupMember, inSystemGroup, type SystemGroupName, systemGroupName } from './system-groups.js';

/** A group with all its recursive subgroups: the user-defined ones by ID, the system ones by name. */
export interface GroupClosure {
  groupIds: Set<number>;
  systemNames: Set<SystemGroupName>;
}

/** The group (user-defined or system, by API ID) and every group below it. Cycles cannot arise (subgroup changes refuse them) but would end here anyway. */
export function groupClosure(groups: readonly StoredUserGroup[], id: number): GroupClosure {
  const byId = new Map(groups.map((g) => [g.id, g]));
  const closure: GroupClosure = { groupIds: new Set(), systemNames: new Set() };
  const pending = [id];
  while (pending.length > 0) {
    const next = pending.pop()!;
    const system = systemGroupName(next);
    if (system) {
      for (const name of systemGroupClosure(system)) closure.systemNames.add(name);
      continue;
    }
    if (closure.groupIds.has(next)) continue;
    closure.groupIds.add(next);
    pending.push(...(byId.get(next)?.subgroups ?? []));
  }
  return closure;
}

/** A membership test for one group: direct members of any group in its closure, or a role its system subgroups take in. */
function memberTest(groups: readonly StoredUserGroup[], id: number): (user: Pick<User, 'id' | 'role'>) => boolean {
  const closure = groupClosure(groups, id);
  const direct = new Set(groups.filter((g) => closure.groupIds.has(g.id)).flatMap((g) => g.members));
  const systems = [...closure.systemNames];
  return (user) => direct.has(user.id) || systems.some((name) => inSystemGroup(user, name));
}

/** The active users in the group (user-defined or system) directly or through its subgroups, ascending. */
export function recursiveMemberIds(groups: readonly StoredUserGroup[], users: readonly User[], id: number): number[] {
  const isMember = memberTest(groups, id);
  return users.filter((u) => countsAsMember(u) && isMember(u)).map((u) => u.id).sort((a, b) => a - b);
}

/** The realm's user-defined groups with `members` replaced by their recursive members (mention flags). */
export function withRecursiveMembers(groups: readonly StoredUserGroup[], users: readonly User[]): StoredUserGroup[] {
  return groups.map((g) => ({ ...g, members: recursiveMemberIds(groups, users, g.id) }));
}

const NONE: ReadonlySet<number> = new Set();

/** The users, each with `userGroupIds`; the same objects when the realm has no user-defined groups. */
export async function withUserGroupIds<U extends User>(tx: Tx, realmId: number, users: readonly U[]): Promise<(U & GroupMember)[]> {
  return withGroupsOf(await tx.userGroups.list(realmId), users);
}

/** As withUserGroupIds, given the realm's groups (`tx.userGroups.list`) already read. */
export function withGroupsOf<U extends User>(groups: readonly StoredUserGroup[], users: readonly U[]): (U & GroupMember)[] {
  if (groups.length === 0) return [...users];
  const tests = groups.map((g) => [g.id, memberTest(groups, g.id)] as const);
  return users.map((user) => {
    const ids = new Set(tests.filter(([, isMember]) => isMember(user)).map(([id]) => id));
    return { ...user, userGroupIds: ids.size === 0 ? NONE : ids };
  });
}

/** The realm's groups and users, as validating a group-setting value needs them. */
export async function loadGroupDirectory(tx: Tx, realmId: number): Promise<{ userGroups: StoredUserGroup[]; users: User[] }> {
  const [userGroups, users] = await Promise.all([tx.userGroups.list(realmId), tx.users.list(realmId)]);
  return { userGroups, users };
}
