/** Input of the user endpoints (API.md 4.4, 4.8, 4.14, 4.19; FACTS.md 6.5). */
import { union } from 'superstruct';
import { nullable, object, optional, type } from './known-structs.js';
import { ROLES } from '../storage/types.js';
import { array, Bool, defaulted, Int, IntOneOf, json, JsonBool, List, PathInt, Str, Text } from './wire.js';

export const GetUsersParams = type({
  client_gravatar: defaulted(JsonBool, true),
  include_custom_profile_fields: defaulted(JsonBool, false),
  user_ids: optional(List(Int)),
});

/** GET /users/{user_id} and GET /users/{email}: the path segment is an ID or an email. */
export const GetUserParams = type({
  user_id: Str,
  client_gravatar: defaulted(JsonBool, true),
  include_custom_profile_fields: defaulted(JsonBool, false),
});

export const GetOwnUserParams = type({});

export const CreateUserParams = type({
  email: Str,
  password: Str,
  full_name: Str,
});

/** One custom profile field value: text, null to remove, or user IDs for the Users type. */
export const ProfileDataEntry = object({
  id: Int,
  value: nullable(union([Str, array(Int)])),
});

export const UpdateUserParams = type({
  user_id: PathInt,
  full_name: optional(Str),
  role: optional(json(IntOneOf(ROLES))),
  profile_data: optional(List(ProfileDataEntry)),
  new_email: optional(Str),
});

export const DeactivationActions = object({
  delete_profile: optional(Bool),
  delete_public_channel_messages: optional(Bool),
  delete_private_channel_messages: optional(Bool),
  delete_direct_messages: optional(Bool),
});

export const DeactivateUserParams = type({
  user_id: PathInt,
  actions: optional(json(DeactivationActions)),
  deactivation_notification_comment: optional(nullable(Text({ max: 2000 }))),
});

export const ReactivateUserParams = type({ user_id: PathInt });

export const FetchApiKeyParams = type({ username: Str, password: Str });

export const RegenerateApiKeyParams = type({});
