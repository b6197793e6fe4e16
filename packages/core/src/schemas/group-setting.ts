/**
 * Group-setting values on input (SHAPES.md 1.3): their wire form, and their validation against
 * the realm's groups and users with the reference's texts (zerver/lib/user_groups.py
 * parse_group_setting_value, validate_group_setting_value_change, access_user_group_for_setting).
 * Pure: the caller passes the realm's groups and users (`GroupDirectory`).
 */
import { err, ok, type Result } from 'neverthrow';
import { union } from 'superstruct';
import { object, optional } from './known-structs.js';
import {
  type ApiAnonymousGroup,
  groupSettingForApi,
  isSystemGroupId,
  storedAnonymousGroup,
  storedGroup,
  systemGroupId,
} from '../access/system-groups.js';
import { type ApiError, badRequest, settingValueMismatch } from '../errors.js';
import type { GroupPermissionConfig } from '../settings/realm-group-permissions.js';
import type { StoredGroupSetting, StoredUserGroup, User } from '../storage/types.js';
import { array, Int, json } from './wire.js';

/** A group-setting value as sent: a group ID or an anonymous group of user and group IDs. */
export type ApiGroupSettingValue = number | ApiAnonymousGroup;

const AnonymousGroup = object({ direct_members: array(Int), direct_subgroups: array(Int) });
const Value = union([Int, AnonymousGroup]);

/** A JSON group-setting value parameter (channel creation). */
export const GroupSettingValueParam = json(Value);

/** A JSON `{new, old}` change of a group setting (PATCH /realm, PATCH /streams/{id}). */
export const GroupSettingChangeParam = json(object({ new: Value, old: optional(Value) }));

export type GroupSettingChange = { new: ApiGroupSettingValue; old?: ApiGroupSettingValue };

/** What validating a value needs to know about the realm. */
export interface GroupDirectory {
  userGroups: readonly StoredUserGroup[];
  users: readonly Pick<User, 'id' | 'isActive'>[];
}

/**
 * parse_group_setting_value: an anonymous group of exactly one subgroup is that group, and an
 * empty anonymous group is `role:nobody`.
 */
export function canonicalGroupSetting(value: ApiGroupSettingValue): ApiGroupSettingValue {
  if (typeof value === 'number') return value;
  if (value.direct_members.length === 0 && value.direct_subgroups.length === 1) return value.direct_subgroups[0]!;
  if (value.direct_members.length === 0 && value.direct_subgroups.length === 0) return systemGroupId('role:nobody');
  return value;
}

/** are_both_group_setting_values_equal: IDs equal, or anonymous groups with the same sets. */
export function sameGroupSetting(a: ApiGroupSettingValue, b: ApiGroupSettingValue): boolean {
  if (typeof a === 'number' || typeof b === 'number') return a === b;
  const sameSet = (x: readonly number[], y: readonly number[]) => new Set(x).size === new Set(y).size && x.every((id) => y.includes(id));
  return sameSet(a.direct_members, b.direct_members) && sameSet(a.direct_subgroups, b.direct_subgroups);
}

/**
 * validate_group_setting_value_change: refuses an `old` that is not the current value, and
 * says whether `new` differs from it (an unchanged setting is neither validated nor written).
 */
export function groupSettingChanges(current: StoredGroupSetting, change: GroupSettingChange): Result<boolean, ApiError> {
  const now = groupSettingForApi(current);
  if (change.old !== undefined && !sameGroupSetting(canonicalGroupSetting(change.old), now)) return err(settingValueMismatch());
  return ok(!sameGroupSetting(now, canonicalGroupSetting(change.new)));
}

/** A named group of the realm: a system group, or an active user-defined one. */
function namedGroup(id: number, directory: GroupDirectory, unknown: string): Result<string | number, ApiError> {
  if (isSystemGroupId(id)) return ok(storedGroup(id));
  const group = directory.userGroups.find((g) => g.id === id);
  if (!group) return err(badRequest(unknown));
  if (group.deactivated) return err(badRequest('User group is deactivated.'));
  return ok(id);
}

/** check_setting_configuration_for_system_groups, for a named group. */
function checkNamedGroup(name: string, group: string | number, config: GroupPermissionConfig): Result<void, ApiError> {
  if (typeof group === 'number') return config.requireSystemGroup ? err(badRequest(`'${name}' must be a system user group.`)) : ok(undefined);
  const refuse = () => err(badRequest(`'${name}' setting cannot be set to '${group}' group.`));
  if (group === 'role:internet' && !config.allowInternet) return refuse();
  if (group === 'role:nobody' && !config.allowNobody) return refuse();
  if (group === 'role:everyone' && !config.allowEveryone) return refuse();
  if (config.allowedSystemGroups && !config.allowedSystemGroups.includes(group as never)) return refuse();
  return ok(undefined);
}

/**
 * access_user_group_for_setting: the stored form of a new value of setting `name`, or the
 * reference's error for an unknown or deactivated group, an inactive or unknown user, or a
 * group the setting may not name. Subgroups of an anonymous group are not checked against the
 * setting's configuration, as in the reference.
 */
export function resolveGroupSetting(
  name: string,
  value: ApiGroupSettingValue,
  config: GroupPermissionConfig,
  directory: GroupDirectory,
): Result<StoredGroupSetting, ApiError> {
  const canonical = canonicalGroupSetting(value);
  if (typeof canonical === 'number') {
    const group = namedGroup(canonical, directory, 'Invalid user group');
    if (group.isErr()) return err(group.error);
    return checkNamedGroup(name, group.value, config).map(() => group.value);
  }
  if (config.requireSystemGroup) return err(badRequest(`'${name}' must be a system user group.`));
  const active = new Set(directory.users.filter((u) => u.isActive).map((u) => u.id));
  const inactive = canonical.direct_members.find((id) => !active.has(id));
  if (inactive !== undefined) return err(badRequest(`Invalid user ID: ${inactive}`));
  for (const id of canonical.direct_subgroups) {
    const group = namedGroup(id, directory, `Invalid user group ID: ${id}`);
    if (group.isErr()) return err(group.error);
  }
  const unique = (ids: readonly number[]) => [...new Set(ids)];
  return ok(storedAnonymousGroup({ direct_members: unique(canonical.direct_members), direct_subgroups: unique(canonical.direct_subgroups) }));
}

