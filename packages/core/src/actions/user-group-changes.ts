/**
 * Changing a user group itself (the reference's edit_user_group and deactivate_user_group):
 * its name, description and permission settings, deactivation and reactivation. Each needs
 * can_manage_group or the realm's can_manage_all_groups; deactivated groups may be edited
 * (FL 340). Every changed field is its own `user_group` update event, after commit.
 */
import { err, ok, type Result } from 'neverthrow';
import { loadGroupDirectory } from '../access/group-membership.js';
import { groupSettingForApi } from '../access/system-groups.js';
import { groupUsageObjections } from '../access/user-group-usage.js';
import { accessUserGroupForUpdate, checkGroupName, mayManageGroup } from '../access/user-groups.js';
import type { Ctx } from '../context.js';
import { type ApiError, badRequest, groupInUse, insufficientPermission } from '../errors.js';
import { activeMemberSet, formatUserGroup } from '../format/user-group.js';
import { type Actor, userOperation } from '../operation.js';
import { groupSettingChanges, resolveGroupSetting } from '../schemas/group-setting.js';
import { DeactivateUserGroupParams, UpdateUserGroupParams } from '../schemas/user-groups.js';
import { USER_GROUP_PERMISSIONS, USER_GROUP_SETTINGS, userGroupSetting } from '../settings/user-group-permissions.js';
import type { StoredGroupSetting, StoredUserGroup, Tx } from '../storage/types.js';
import { transactionAs } from '../transaction.js';
import { announceUserGroup } from '../groups/user-group-events.js';

type UpdateInput = (typeof UpdateUserGroupParams)['TYPE'];

/** The settings the request changes, validated against the realm's groups and users. */
async function changedSettings(tx: Tx, actor: Actor, group: StoredUserGroup, params: UpdateInput): Promise<Result<Record<string, StoredGroupSetting>, ApiError>> {
  const requested = USER_GROUP_SETTINGS.filter((name) => params[name] !== undefined);
  const changes: Record<string, StoredGroupSetting> = {};
  if (requested.length === 0) return ok(changes);
  const directory = await loadGroupDirectory(tx, actor.realm.id);
  for (const name of requested) {
    const change = params[name]!;
    const differs = groupSettingChanges(userGroupSetting(group, name), change);
    if (differs.isErr()) return err(differs.error);
    if (!differs.value) continue;
    const stored = resolveGroupSetting(name, change.new, USER_GROUP_PERMISSIONS[name], directory);
    if (stored.isErr()) return err(stored.error);
    changes[name] = stored.value;
  }
  return ok(changes);
}

/** Publishes a deactivation or reactivation: update {deactivated} to include_deactivated_groups clients, remove or add to the others. */
async function announceActivation(ctx: Ctx, tx: Tx, actor: Actor, group: StoredUserGroup, deactivated: boolean): Promise<void> {
  await announceUserGroup(ctx, tx, actor.realm, { op: 'update', group_id: group.id, data: { deactivated } }, true);
  if (deactivated) return announceUserGroup(ctx, tx, actor.realm, { op: 'remove', group_id: group.id }, false);
  const active = activeMemberSet(await tx.users.list(actor.realm.id));
  const after = (await tx.userGroups.get(actor.realm.id, group.id))!;
  return announceUserGroup(ctx, tx, actor.realm, { op: 'add', group: formatUserGroup(after, active) }, false);
}

/**
 * PATCH /user_groups/{user_group_id}: name, description, any `can_*_group` setting as a
 * {new, old} change, and `deactivated: false` to reactivate (FL 386). Unchanged values are
 * neither validated nor announced.
 */
export const doUpdateUserGroup = userOperation(UpdateUserGroupParams, async (ctx, requester: Actor, params) =>
  transactionAs(ctx, requester, async (tx, actor) => {
    const given = ['name', 'description', 'deactivated', ...USER_GROUP_SETTINGS] as const;
    if (given.every((key) => params[key] === undefined)) return err(badRequest('No new data supplied'));
    const access = await accessUserGroupForUpdate(tx, actor, params.user_group_id);
    if (access.isErr()) return err(access.error);
    const group = access.value;
    if (!mayManageGroup(actor.user, actor.realm, group)) return err(insufficientPermission());
    // Deactivation has its own endpoint, which checks where the group is used.
    if (params.deactivated === true) return err(badRequest('Use the deactivate endpoint to deactivate a user group.'));
    const groups = await tx.userGroups.list(actor.realm.id);
    const name = params.name !== undefined && params.name !== group.name ? checkGroupName(params.name, groups, group.id) : ok(undefined);
    if (name.isErr()) return err(name.error);
    const settings = await changedSettings(tx, actor, group, params);
    if (settings.isErr()) return err(settings.error);

    if (params.deactivated === false && group.deactivated) {
      await tx.userGroups.update(actor.realm.id, group.id, { deactivated: false });
      await announceActivation(ctx, tx, actor, group, false);
    }
    const update = (data: Record<string, unknown>) => announceUserGroup(ctx, tx, actor.realm, { op: 'update', group_id: group.id, data });
    if (name.value !== undefined) {
      await tx.userGroups.update(actor.realm.id, group.id, { name: name.value });
      await update({ name: name.value });
    }
    if (params.description !== undefined && params.description !== group.description) {
      await tx.userGroups.update(actor.realm.id, group.id, { description: params.description });
      await update({ description: params.description });
    }
    const names = Object.keys(settings.value);
    if (names.length > 0) {
      const current = Object.fromEntries(USER_GROUP_SETTINGS.map((n) => [n, userGroupSetting(group, n)]));
      await tx.userGroups.update(actor.realm.id, group.id, { settings: { ...current, ...settings.value } });
      for (const n of names) await update({ [n]: groupSettingForApi(settings.value[n]!) });
    }
    return ok({});
  }),
);

/** POST /user_groups/{user_group_id}/deactivate: refused while a supergroup or a setting names the group. */
export const doDeactivateUserGroup = userOperation(DeactivateUserGroupParams, async (ctx, requester: Actor, params) =>
  transactionAs(ctx, requester, async (tx, actor) => {
    const access = await accessUserGroupForUpdate(tx, actor, params.user_group_id);
    if (access.isErr()) return err(access.error);
    const group = access.value;
    if (!mayManageGroup(actor.user, actor.realm, group)) return err(insufficientPermission());
    if (group.deactivated) return err(badRequest('User group is deactivated.'));
    const [streams, groups] = await Promise.all([tx.streams.list(actor.realm.id), tx.userGroups.list(actor.realm.id)]);
    const objections = groupUsageObjections(group, actor.realm, streams, groups);
    if (objections.length > 0) return err(groupInUse(objections));
    await tx.userGroups.update(actor.realm.id, group.id, { deactivated: true });
    await announceActivation(ctx, tx, actor, group, true);
    return ok({});
  }),
);
