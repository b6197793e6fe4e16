/**
 * Subgroups of user groups (the reference's add_subgroups_to_group_backend,
 * remove_subgroups_from_group_backend): a group's direct subgroups may be user-defined or
 * system groups; a change that would make a group its own subgroup, directly or not, is refused.
 */
import { err, ok, type Result } from 'neverthrow';
import { groupClosure } from '../access/group-membership.js';
import { isSystemGroupId } from '../access/system-groups.js';
import { accessUserGroupForUpdate, hasGroupPermission } from '../access/user-groups.js';
import type { Ctx } from '../context.js';
import { type ApiError, badRequest, insufficientPermission } from '../errors.js';
import { type Actor, userOperation } from '../operation.js';
import { UpdateUserGroupSubgroupsParams } from '../schemas/user-groups.js';
import type { Realm, StoredUserGroup, Tx } from '../storage/types.js';
import { transactionAs } from '../transaction.js';
import { announceUserGroup } from '../groups/user-group-events.js';

/** access_user_groups_as_potential_subgroups: each ID a group of the realm (system ones too), once each. */
function accessPotentialSubgroups(groups: readonly StoredUserGroup[], ids: readonly number[]): Result<number[], ApiError> {
  const unknown = ids.find((id) => !isSystemGroupId(id) && !groups.some((g) => g.id === id));
  return unknown === undefined ? ok([...new Set(ids)]) : err(badRequest(`Invalid user group ID: ${unknown}`));
}

/**
 * The groups to add as subgroups: known, active (a deactivated group serves no purpose), not
 * already direct subgroups of `supergroup`, and not containing it (no cycles).
 */
export function checkPotentialSubgroups(groups: readonly StoredUserGroup[], ids: readonly number[], supergroup?: StoredUserGroup): Result<number[], ApiError> {
  const access = accessPotentialSubgroups(groups, ids);
  if (access.isErr()) return access;
  if (access.value.some((id) => groups.find((g) => g.id === id)?.deactivated)) return err(badRequest('User group is deactivated.'));
  if (!supergroup) return access;
  const already = access.value.find((id) => supergroup.subgroups.includes(id));
  if (already !== undefined) return err(badRequest(`User group ${already} is already a subgroup of this group.`));
  if (access.value.some((id) => groupClosure(groups, id).groupIds.has(supergroup.id))) {
    return err(badRequest(`User group ${supergroup.id} is already a subgroup of one of the passed subgroups.`));
  }
  return access;
}

/** Writes and announces new direct subgroups (already checked). */
export async function addSubgroups(ctx: Ctx, tx: Tx, realm: Realm, group: StoredUserGroup, ids: readonly number[]): Promise<void> {
  await tx.userGroups.addSubgroups(realm.id, group.id, ids);
  await announceUserGroup(ctx, tx, realm, { op: 'add_subgroups', group_id: group.id, direct_subgroup_ids: [...ids] });
}

async function removeSubgroups(ctx: Ctx, tx: Tx, realm: Realm, group: StoredUserGroup, groups: readonly StoredUserGroup[], ids: readonly number[]): Promise<Result<void, ApiError>> {
  const access = accessPotentialSubgroups(groups, ids);
  if (access.isErr()) return err(access.error);
  const absent = access.value.find((id) => !group.subgroups.includes(id));
  if (absent !== undefined) return err(badRequest(`User group ${absent} is not a subgroup of this group.`));
  await tx.userGroups.removeSubgroups(realm.id, group.id, access.value);
  await announceUserGroup(ctx, tx, realm, { op: 'remove_subgroups', group_id: group.id, direct_subgroup_ids: access.value });
  return ok(undefined);
}

/** Adds or removes direct subgroups of `group` for the actor, who needs can_manage_group (or can_manage_all_groups). */
export async function changeSubgroupsAs(ctx: Ctx, tx: Tx, actor: Actor, group: StoredUserGroup, ids: readonly number[], op: 'add' | 'remove'): Promise<Result<void, ApiError>> {
  if (!hasGroupPermission(actor.user, actor.realm, group, 'can_manage_group')) return err(insufficientPermission());
  const groups = await tx.userGroups.list(actor.realm.id);
  if (op === 'remove') return removeSubgroups(ctx, tx, actor.realm, group, groups, ids);
  const checked = checkPotentialSubgroups(groups, ids, group);
  if (checked.isErr()) return err(checked.error);
  await addSubgroups(ctx, tx, actor.realm, group, checked.value);
  return ok(undefined);
}

/** POST /user_groups/{user_group_id}/subgroups: adds `add`, then removes `delete`, all or nothing. */
export const doUpdateUserGroupSubgroups = userOperation(UpdateUserGroupSubgroupsParams, async (ctx, requester: Actor, params) =>
  transactionAs(ctx, requester, async (tx, actor) => {
    const [add, remove] = [params.add ?? [], params.delete ?? []];
    if (add.length === 0 && remove.length === 0) return err(badRequest('Nothing to do. Specify at least one of "add" or "delete".'));
    const access = await accessUserGroupForUpdate(tx, actor, params.user_group_id);
    if (access.isErr()) return err(access.error);
    if (add.length > 0) {
      const added = await changeSubgroupsAs(ctx, tx, actor, access.value, add, 'add');
      if (added.isErr()) return err(added.error);
    }
    if (remove.length > 0) {
      const group = (await tx.userGroups.get(actor.realm.id, access.value.id))!;
      const removed = await changeSubgroupsAs(ctx, tx, actor, group, remove, 'remove');
      if (removed.isErr()) return err(removed.error);
    }
    return ok({});
  }),
);
