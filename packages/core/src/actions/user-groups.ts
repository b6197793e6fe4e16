/**
 * User groups (the reference's views/user_groups.py and actions/user_groups.py): creating a
 * group, and changing its members and subgroups in one request. Who may do what is
 * access/user-groups.ts; each change sends its `user_group` event after commit.
 */
import { err, ok, type Result } from 'neverthrow';
import { loadGroupDirectory } from '../access/group-membership.js';
import { hasRealmPermission } from '../access/realm-rules.js';
import { accessUserGroupForUpdate, activeUsersByIds, checkGroupName, hasGroupPermission } from '../access/user-groups.js';
import type { Ctx } from '../context.js';
import { type ApiError, badRequest, insufficientPermission } from '../errors.js';
import { formatUserGroup } from '../format/user-group.js';
import { type Actor, userOperation } from '../operation.js';
import { resolveGroupSetting } from '../schemas/group-setting.js';
import { CreateUserGroupParams, UpdateUserGroupMembersParams } from '../schemas/user-groups.js';
import { defaultUserGroupSettings, USER_GROUP_PERMISSIONS, USER_GROUP_SETTINGS } from '../settings/user-group-permissions.js';
import type { StoredGroupSetting, StoredUserGroup, Tx } from '../storage/types.js';
import { transactionAs } from '../transaction.js';
import { addSubgroups, changeSubgroupsAs, checkPotentialSubgroups } from './user-group-subgroups.js';
import { announceUserGroup } from '../groups/user-group-events.js';

type CreateInput = (typeof CreateUserGroupParams)['TYPE'];

/** The group settings the request gives, validated; the defaults for the rest. */
async function initialSettings(tx: Tx, actor: Actor, params: CreateInput): Promise<Result<Record<string, StoredGroupSetting>, ApiError>> {
  const settings: Record<string, StoredGroupSetting> = defaultUserGroupSettings(actor.user.id);
  const requested = USER_GROUP_SETTINGS.filter((name) => params[name] !== undefined);
  if (requested.length === 0) return ok(settings);
  const directory = await loadGroupDirectory(tx, actor.realm.id);
  for (const name of requested) {
    const stored = resolveGroupSetting(name, params[name]!, USER_GROUP_PERMISSIONS[name], directory);
    if (stored.isErr()) return err(stored.error);
    settings[name] = stored.value;
  }
  return ok(settings);
}

/**
 * POST /user_groups/create: a group with its initial members, settings and subgroups; returns
 * its `group_id` (FL 317). The creator may add subgroups whatever the new group's settings say.
 */
export const doCreateUserGroup = userOperation(CreateUserGroupParams, async (ctx, requester: Actor, params) =>
  transactionAs(ctx, requester, async (tx, actor) => {
    if (!hasRealmPermission(actor.user, actor.realm, 'can_create_groups')) return err(insufficientPermission());
    const members = await activeUsersByIds(tx, actor.realm.id, params.members);
    if (members.isErr()) return err(members.error);
    const groups = await tx.userGroups.list(actor.realm.id);
    const name = checkGroupName(params.name, groups);
    if (name.isErr()) return err(name.error);
    const settings = await initialSettings(tx, actor, params);
    if (settings.isErr()) return err(settings.error);
    const subgroups = checkPotentialSubgroups(groups, params.subgroups ?? []);
    if (subgroups.isErr()) return err(subgroups.error);
    const group = await tx.userGroups.insert(actor.realm.id, {
      name: name.value,
      description: params.description,
      creatorId: actor.user.id,
      dateCreated: Math.floor(ctx.clock.now() / 1000),
      members: members.value,
      settings: settings.value,
    });
    await announceUserGroup(ctx, tx, actor.realm, { op: 'add', group: formatUserGroup(group, new Set(members.value)) });
    if (subgroups.value.length > 0) await addSubgroups(ctx, tx, actor.realm, group, subgroups.value);
    return ok({ group_id: group.id });
  }),
);

/**
 * Adds users: oneself alone through can_join_group (or, failing that, can_add_members_group),
 * anyone else through can_add_members_group.
 */
async function addMembers(ctx: Ctx, tx: Tx, actor: Actor, group: StoredUserGroup, ids: readonly number[]): Promise<Result<void, ApiError>> {
  const joining = ids.length === 1 && ids[0] === actor.user.id && hasGroupPermission(actor.user, actor.realm, group, 'can_join_group');
  if (!joining && !hasGroupPermission(actor.user, actor.realm, group, 'can_add_members_group')) return err(insufficientPermission());
  const added = await activeUsersByIds(tx, actor.realm.id, ids);
  if (added.isErr()) return err(added.error);
  const already = added.value.find((id) => group.members.includes(id));
  if (already !== undefined) return err(badRequest(`User ${already} is already a member of this group`));
  await tx.userGroups.addMembers(actor.realm.id, group.id, added.value);
  await announceUserGroup(ctx, tx, actor.realm, { op: 'add_members', group_id: group.id, user_ids: added.value });
  return ok(undefined);
}

/** Removes users: oneself alone through can_leave_group (or can_remove_members_group), anyone else through can_remove_members_group. */
async function removeMembers(ctx: Ctx, tx: Tx, actor: Actor, group: StoredUserGroup, ids: readonly number[]): Promise<Result<void, ApiError>> {
  const removed = await activeUsersByIds(tx, actor.realm.id, ids);
  if (removed.isErr()) return err(removed.error);
  const leaving = ids.length === 1 && ids[0] === actor.user.id && hasGroupPermission(actor.user, actor.realm, group, 'can_leave_group');
  if (!leaving && !hasGroupPermission(actor.user, actor.realm, group, 'can_remove_members_group')) return err(insufficientPermission());
  const absent = removed.value.find((id) => !group.members.includes(id));
  if (absent !== undefined) return err(badRequest(`There is no member '${absent}' in this user group`));
  await tx.userGroups.removeMembers(actor.realm.id, group.id, removed.value);
  await announceUserGroup(ctx, tx, actor.realm, { op: 'remove_members', group_id: group.id, user_ids: removed.value });
  return ok(undefined);
}

/**
 * POST /user_groups/{user_group_id}/members: adds `add`, removes `delete`, then adds
 * `add_subgroups` and removes `delete_subgroups`, all or nothing (the reference's compose_views).
 * Deactivated groups may be changed too (FL 391).
 */
export const doUpdateUserGroupMembers = userOperation(UpdateUserGroupMembersParams, async (ctx, requester: Actor, params) =>
  transactionAs(ctx, requester, async (tx, actor) => {
    const [add, remove, addSubs, removeSubs] = [params.add ?? [], params.delete ?? [], params.add_subgroups ?? [], params.delete_subgroups ?? []];
    if (add.length + remove.length + addSubs.length + removeSubs.length === 0) {
      return err(badRequest('Nothing to do. Specify at least one of "add", "delete", "add_subgroups" or "delete_subgroups".'));
    }
    const access = await accessUserGroupForUpdate(tx, actor, params.user_group_id);
    if (access.isErr()) return err(access.error);
    let group = access.value;
    const steps: ((g: StoredUserGroup) => Promise<Result<unknown, ApiError>>)[] = [];
    if (add.length > 0) steps.push((g) => addMembers(ctx, tx, actor, g, add));
    if (remove.length > 0) steps.push((g) => removeMembers(ctx, tx, actor, g, remove));
    if (addSubs.length > 0) steps.push((g) => changeSubgroupsAs(ctx, tx, actor, g, addSubs, 'add'));
    if (removeSubs.length > 0) steps.push((g) => changeSubgroupsAs(ctx, tx, actor, g, removeSubs, 'remove'));
    for (const step of steps) {
      const done = await step(group);
      if (done.isErr()) return err(done.error);
      group = (await tx.userGroups.get(actor.realm.id, group.id))!;
    }
    return ok({});
  }),
);
