/** Input of the user-group endpoints (openapi /user_groups…). Group settings are JSON group-setting values (schemas/group-setting.ts). */
import { type } from './known-structs.js';
import { GroupSettingChangeParam, GroupSettingValueParam } from './group-setting.js';
import { Int, JsonBool, List, optional, PathInt, Str } from './wire.js';

/** GET /user_groups. */
export const GetUserGroupsParams = type({ include_deactivated_groups: optional(JsonBool) });

/** POST /user_groups/create. */
export const CreateUserGroupParams = type({
  name: Str,
  description: Str,
  members: List(Int),
  subgroups: optional(List(Int)),
  can_add_members_group: optional(GroupSettingValueParam),
  can_join_group: optional(GroupSettingValueParam),
  can_leave_group: optional(GroupSettingValueParam),
  can_manage_group: optional(GroupSettingValueParam),
  can_mention_group: optional(GroupSettingValueParam),
  can_remove_members_group: optional(GroupSettingValueParam),
});

/** PATCH /user_groups/{user_group_id}: each setting as a `{new, old}` change. */
export const UpdateUserGroupParams = type({
  user_group_id: PathInt,
  name: optional(Str),
  description: optional(Str),
  deactivated: optional(JsonBool),
  can_add_members_group: optional(GroupSettingChangeParam),
  can_join_group: optional(GroupSettingChangeParam),
  can_leave_group: optional(GroupSettingChangeParam),
  can_manage_group: optional(GroupSettingChangeParam),
  can_mention_group: optional(GroupSettingChangeParam),
  can_remove_members_group: optional(GroupSettingChangeParam),
});

/** POST /user_groups/{user_group_id}/members (subgroups too since FL 311). */
export const UpdateUserGroupMembersParams = type({
  user_group_id: PathInt,
  add: optional(List(Int)),
  delete: optional(List(Int)),
  add_subgroups: optional(List(Int)),
  delete_subgroups: optional(List(Int)),
});

/** POST /user_groups/{user_group_id}/subgroups. */
export const UpdateUserGroupSubgroupsParams = type({ user_group_id: PathInt, add: optional(List(Int)), delete: optional(List(Int)) });

/** POST /user_groups/{user_group_id}/deactivate. */
export const DeactivateUserGroupParams = type({ user_group_id: PathInt });

/** GET /user_groups/{user_group_id}/members. */
export const GetUserGroupMembersParams = type({ user_group_id: PathInt, direct_member_only: optional(JsonBool) });

/** GET /user_groups/{user_group_id}/members/{user_id}. */
export const GetIsUserGroupMemberParams = type({ user_group_id: PathInt, user_id: PathInt, direct_member_only: optional(JsonBool) });

/** GET /user_groups/{user_group_id}/subgroups. */
export const GetUserGroupSubgroupsParams = type({ user_group_id: PathInt, direct_subgroup_only: optional(JsonBool) });
