/**
 * Loads what group-setting checks need to know about user-defined groups: which of the realm's
 * groups each user belongs to. Users read from storage carry none; the transaction wrapper
 * and the channel audiences attach them here, once per request, so that the checks in
 * access/*-rules.ts stay pure functions of the user.
 */
import type { StoredUserGroup, Tx, User } from '../storage/types.js';
import type { GroupMember } from './system-groups.js';

/** User ID → IDs of the user-defined groups they are in. Groups have no subgroups yet, so direct membership is all of it. */
export function membershipIndex(groups: readonly StoredUserGroup[]): Map<number, Set<number>> {
  const index = new Map<number, Set<number>>();
  for (const group of groups) {
    for (const userId of group.members) {
      let ids = index.get(userId);
      if (!ids) index.set(userId, (ids = new Set()));
      ids.add(group.id);
    }
  }
  return index;
}

const NONE: ReadonlySet<number> = new Set();

/** The users, each with `userGroupIds`; the same objects when the realm has no user-defined groups. */
export async function withUserGroupIds<U extends User>(tx: Tx, realmId: number, users: readonly U[]): Promise<(U & GroupMember)[]> {
  const groups = await tx.userGroups.list(realmId);
  if (groups.length === 0) return [...users];
  const index = membershipIndex(groups);
  return users.map((user) => ({ ...user, userGroupIds: index.get(user.id) ?? NONE }));
}

/** The realm's groups and users, as validating a group-setting value needs them. */
export async function loadGroupDirectory(tx: Tx, realmId: number): Promise<{ userGroups: StoredUserGroup[]; users: User[] }> {
  const [userGroups, users] = await Promise.all([tx.userGroups.list(realmId), tx.users.list(realmId)]);
  return { userGroups, users };
}
