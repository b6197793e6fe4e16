/**
 * Reading user groups (the reference's get_user_groups, get_user_group_members,
 * get_is_user_group_member, get_subgroups_of_user_group). Any user of the realm may read them,
 * system groups and deactivated groups included; members are active users only (FL 303).
 */
import { err, ok, type Result } from 'neverthrow';
import { groupClosure, recursiveMemberIds } from '../access/group-membership.js';
import { systemDirectSubgroupIds, systemGroupDirectMembers } from '../access/system-group-members.js';
import { isSystemGroupId, systemGroupId, systemGroupName } from '../access/system-groups.js';
import { accessUserById } from '../access/users.js';
import { type ApiError, badRequest } from '../errors.js';
import { activeMemberSet, apiUserGroups } from '../format/user-group.js';
import { userOperation } from '../operation.js';
import { GetIsUserGroupMemberParams, GetUserGroupMembersParams, GetUserGroupSubgroupsParams, GetUserGroupsParams } from '../schemas/user-groups.js';
import type { StoredUserGroup, Tx, User } from '../storage/types.js';

/** GET /user_groups: system groups, then the realm's own; deactivated ones only with include_deactivated_groups. */
export const getUserGroups = userOperation(GetUserGroupsParams, async (ctx, actor, params) => {
  const [groups, users] = await ctx.storage.read((tx) => Promise.all([tx.userGroups.list(actor.realm.id), tx.users.list(actor.realm.id)]));
  return ok({ user_groups: apiUserGroups(groups, users, params.include_deactivated_groups === true) });
});

interface GroupView {
  groups: StoredUserGroup[];
  users: User[];
  /** The requested group, stored, or undefined for a system group. */
  group: StoredUserGroup | undefined;
}

/** access_user_group_by_id for reading: a system group or one of the realm's groups, else "Invalid user group". */
async function readGroup(tx: Tx, realmId: number, id: number): Promise<Result<GroupView, ApiError>> {
  const [groups, users] = await Promise.all([tx.userGroups.list(realmId), tx.users.list(realmId)]);
  const group = groups.find((g) => g.id === id);
  if (!group && !isSystemGroupId(id)) return err(badRequest('Invalid user group'));
  return ok({ groups, users, group });
}

/** The group's direct members that are active, ascending. */
function directMembers(view: GroupView, id: number): number[] {
  const name = systemGroupName(id);
  if (name) return systemGroupDirectMembers(name, view.users);
  const active = activeMemberSet(view.users);
  return view.group!.members.filter((m) => active.has(m));
}

/** GET /user_groups/{user_group_id}/members: members through subgroups too unless direct_member_only. */
export const getUserGroupMembers = userOperation(GetUserGroupMembersParams, async (ctx, actor, params) =>
  ctx.storage.read(async (tx) => {
    const view = await readGroup(tx, actor.realm.id, params.user_group_id);
    if (view.isErr()) return err(view.error);
    const id = params.user_group_id;
    return ok({ members: params.direct_member_only ? directMembers(view.value, id) : recursiveMemberIds(view.value.groups, view.value.users, id) });
  }),
);

/** GET /user_groups/{user_group_id}/members/{user_id}: whether the (active) user is in the group. */
export const getIsUserGroupMember = userOperation(GetIsUserGroupMemberParams, async (ctx, actor, params) =>
  ctx.storage.read(async (tx) => {
    const view = await readGroup(tx, actor.realm.id, params.user_group_id);
    if (view.isErr()) return err(view.error);
    const target = await accessUserById(tx, actor, params.user_id);
    if (target.isErr()) return err(target.error);
    const id = params.user_group_id;
    const members = params.direct_member_only ? directMembers(view.value, id) : recursiveMemberIds(view.value.groups, view.value.users, id);
    return ok({ is_user_group_member: members.includes(target.value.id) });
  }),
);

/** GET /user_groups/{user_group_id}/subgroups: every group below it unless direct_subgroup_only, ascending. */
export const getUserGroupSubgroups = userOperation(GetUserGroupSubgroupsParams, async (ctx, actor, params) =>
  ctx.storage.read(async (tx) => {
    const view = await readGroup(tx, actor.realm.id, params.user_group_id);
    if (view.isErr()) return err(view.error);
    const id = params.user_group_id;
    const name = systemGroupName(id);
    if (params.direct_subgroup_only) return ok({ subgroups: name ? systemDirectSubgroupIds(name) : [...view.value.group!.subgroups] });
    const closure = groupClosure(view.value.groups, id);
    const ids = [...closure.groupIds, ...[...closure.systemNames].map(systemGroupId)].filter((g) => g !== id);
    return ok({ subgroups: ids.sort((a, b) => a - b) });
  }),
);
