/**
 * What a user's creation, role change or reactivation means for group membership, announced as
 * `user_group` add_members / remove_members events (the reference's do_create_user,
 * do_change_user_role and do_reactivate_user). System-group membership follows the role, so
 * nothing is written; a deactivation sends nothing, as clients drop the user from every group
 * themselves (API.md 6).
 */
import { directSystemGroups } from '../access/system-group-members.js';
import { systemGroupId } from '../access/system-groups.js';
import type { Ctx } from '../context.js';
import type { Realm, Tx, User } from '../storage/types.js';
import { announceUserGroup } from './user-group-events.js';
import { ROLE } from '../access/roles.js';

const membersEvent = (op: 'add_members' | 'remove_members', groupId: number, user: User) => ({ op, group_id: groupId, user_ids: [user.id] });

/** A new user joins the system groups of their role. */
export async function announceSystemGroupsJoined(ctx: Ctx, tx: Tx, realm: Realm, user: User): Promise<void> {
  if (user.isSystemBot) return;
  for (const name of directSystemGroups(user.role)) await announceUserGroup(ctx, tx, realm, membersEvent('add_members', systemGroupId(name), user));
}

/**
 * A role change: the user leaves the old role's group and joins the new one's, then (when
 * either role is member) leaves or joins role:fullmembers, in the reference's order.
 */
export async function announceRoleGroups(ctx: Ctx, tx: Tx, realm: Realm, before: User, after: User): Promise<void> {
  if (after.isSystemBot) return;
  const [oldGroup, newGroup] = [directSystemGroups(before.role)[0]!, directSystemGroups(after.role)[0]!];
  await announceUserGroup(ctx, tx, realm, membersEvent('remove_members', systemGroupId(oldGroup), after));
  await announceUserGroup(ctx, tx, realm, membersEvent('add_members', systemGroupId(newGroup), after));
  const fullMembers = systemGroupId('role:fullmembers');
  if (before.role === ROLE.member) await announceUserGroup(ctx, tx, realm, membersEvent('remove_members', fullMembers, after));
  if (after.role === ROLE.member) await announceUserGroup(ctx, tx, realm, membersEvent('add_members', fullMembers, after));
}

/** A reactivated user is back in the groups they are a direct member of: the system groups of their role, then user-defined ones. */
export async function announceGroupsRejoined(ctx: Ctx, tx: Tx, realm: Realm, user: User): Promise<void> {
  await announceSystemGroupsJoined(ctx, tx, realm, user);
  for (const group of await tx.userGroups.list(realm.id)) {
    if (group.members.includes(user.id)) await announceUserGroup(ctx, tx, realm, membersEvent('add_members', group.id, user));
  }
}
