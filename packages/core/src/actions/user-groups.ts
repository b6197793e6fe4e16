/**
 * User groups (the reference's actions/user_groups.py): the realm's can_create_groups create groups, and
 * whoever manages a group (its creator, or an administrator) changes its members. Each change
 * sends its `user_group` event after commit.
 */
import { err, ok, type Result } from 'neverthrow';
import { hasRealmPermission } from '../access/realm-rules.js';
import { isAdmin, isGuest } from '../access/roles.js';
import { inGroupSetting } from '../access/system-groups.js';
import { type ApiError, badRequest, insufficientPermission } from '../errors.js';
import { formatUserGroup } from '../format/user-group.js';
import { type Actor, userOperation } from '../operation.js';
import { CreateUserGroupParams, UpdateUserGroupMembersParams } from '../schemas/user-groups.js';
import type { Realm, StoredUserGroup, Tx, User } from '../storage/types.js';
import { announceUserGroup } from './user-group-events.js';
import { transactionAs } from './transaction.js';

const MAX_NAME_LENGTH = 100;
// Names that would read as another kind of group-setting or mention syntax.
const INVALID_NAME_PREFIXES = ['@', 'role:', 'user:', 'stream:', 'channel:'];

function checkName(name: string, groups: readonly StoredUserGroup[]): Result<string, ApiError> {
  // The reference's wording for the empty name is not shown; this one follows its others.
  if (name.trim() === '') return err(badRequest('User group name cannot be empty.'));
  if ([...name].length > MAX_NAME_LENGTH) return err(badRequest(`User group name cannot exceed ${MAX_NAME_LENGTH} characters.`));
  const prefix = INVALID_NAME_PREFIXES.find((p) => name.startsWith(p));
  if (prefix) return err(badRequest(`User group name cannot start with '${prefix}'.`));
  if (groups.some((g) => g.name.toLowerCase() === name.toLowerCase())) return err(badRequest(`User group '${name}' already exists.`));
  return ok(name);
}

/** The requested users, each an active user of the realm, once each in the given order. */
async function activeUsers(tx: Tx, realmId: number, ids: readonly number[]): Promise<Result<number[], ApiError>> {
  const users = new Map((await tx.users.list(realmId)).map((u) => [u.id, u]));
  const missing = ids.find((id) => !users.get(id)?.isActive || users.get(id)?.isSystemBot);
  return missing === undefined ? ok([...new Set(ids)]) : err(badRequest(`Invalid user ID: ${missing}`));
}

/** Whether the user may change the group's members: whoever is in its can_manage_group setting (its creator), the realm's can_manage_all_groups, and administrators. */
export const mayManage = (user: User, realm: Realm, group: StoredUserGroup) =>
  isAdmin(user) || hasRealmPermission(user, realm, 'can_manage_all_groups') || (!isGuest(user) && inGroupSetting(user, { direct_members: group.creatorId === null ? [] : [group.creatorId], direct_subgroups: [] }));

/** POST /user_groups/create: a group with its initial members; returns its `id`. */
export const doCreateUserGroup = userOperation(CreateUserGroupParams, async (ctx, requester: Actor, params) =>
  transactionAs(ctx, requester, async (tx, actor) => {
    if (!hasRealmPermission(actor.user, actor.realm, 'can_create_groups')) return err(insufficientPermission());
    const name = checkName(params.name, await tx.userGroups.list(actor.realm.id));
    if (name.isErr()) return err(name.error);
    const members = await activeUsers(tx, actor.realm.id, params.members);
    if (members.isErr()) return err(members.error);
    const group = await tx.userGroups.insert(actor.realm.id, {
      name: name.value,
      description: params.description,
      creatorId: actor.user.id,
      dateCreated: Math.floor(ctx.clock.now() / 1000),
      members: members.value,
    });
    await announceUserGroup(ctx, tx, actor.realm, { op: 'add', group: formatUserGroup(group) });
    return ok({ id: group.id });
  }),
);

/** POST /user_groups/{user_group_id}/members: adds `add` and removes `delete`, all or nothing. */
export const doUpdateUserGroupMembers = userOperation(UpdateUserGroupMembersParams, async (ctx, requester: Actor, params) =>
  transactionAs(ctx, requester, async (tx, actor) => {
    const group = await tx.userGroups.get(actor.realm.id, params.user_group_id);
    if (!group) return err(badRequest('Invalid user group'));
    const [add, remove] = [params.add ?? [], params.delete ?? []];
    if (add.length === 0 && remove.length === 0) {
      return err(badRequest('Nothing to do. Specify at least one of "add", "delete", "add_subgroups" or "delete_subgroups".'));
    }
    if (!mayManage(actor.user, actor.realm, group)) return err(insufficientPermission());
    const added = await activeUsers(tx, actor.realm.id, add);
    if (added.isErr()) return err(added.error);
    const present = new Set(group.members);
    const already = added.value.find((id) => present.has(id));
    if (already !== undefined) return err(badRequest(`User ${already} is already a member of this group`));
    const absent = remove.find((id) => !present.has(id));
    if (absent !== undefined) return err(badRequest(`There is no member '${absent}' in this user group`));
    const removed = [...new Set(remove)];
    if (added.value.length > 0) {
      await tx.userGroups.addMembers(actor.realm.id, group.id, added.value);
      await announceUserGroup(ctx, tx, actor.realm, { op: 'add_members', group_id: group.id, user_ids: added.value });
    }
    if (removed.length > 0) {
      await tx.userGroups.removeMembers(actor.realm.id, group.id, removed);
      await announceUserGroup(ctx, tx, actor.realm, { op: 'remove_members', group_id: group.id, user_ids: removed });
    }
    return ok({});
  }),
);
