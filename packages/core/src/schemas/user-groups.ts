/** Input of the user-group endpoints (openapi /user_groups, /user_groups/create, /user_groups/{id}/members). */
import { type } from 'superstruct';
import { Int, JsonBool, List, optional, PathInt, Str } from './wire.js';

/** GET /user_groups. */
export const GetUserGroupsParams = type({ include_deactivated_groups: optional(JsonBool) });

/** POST /user_groups/create. */
export const CreateUserGroupParams = type({ name: Str, description: Str, members: List(Int) });

/** POST /user_groups/{user_group_id}/members. */
export const UpdateUserGroupMembersParams = type({ user_group_id: PathInt, add: optional(List(Int)), delete: optional(List(Int)) });
