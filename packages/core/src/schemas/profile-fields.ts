/** Input of the custom profile field endpoints (API.md 4.7, 4.12; SHAPES.md 6.15). */
import { define, optional, type } from 'superstruct';
import { ProfileDataEntry } from './users.js';
import { Int, json, JsonBool, JsonInt, List, PathInt, Str } from './wire.js';

/** A JSON object (the reference's check_dict): sent as an object or as JSON text. */
const Dict = json(
  define<Record<string, unknown>>('dict', (v) => (typeof v === 'object' && v !== null && !Array.isArray(v)) || '{var} is not a dict'),
);

export const GetProfileFieldsParams = type({});

export const CreateProfileFieldParams = type({
  name: optional(Str),
  hint: optional(Str),
  field_type: JsonInt,
  field_data: optional(Dict),
  display_in_profile_summary: optional(JsonBool),
  required: optional(JsonBool),
  editable_by_user: optional(JsonBool),
  use_for_user_matching: optional(JsonBool),
});

export const UpdateProfileFieldParams = type({
  field_id: PathInt,
  name: optional(Str),
  hint: optional(Str),
  field_data: optional(Dict),
  display_in_profile_summary: optional(JsonBool),
  required: optional(JsonBool),
  editable_by_user: optional(JsonBool),
  use_for_user_matching: optional(JsonBool),
});

export const DeleteProfileFieldParams = type({ field_id: PathInt });

export const ReorderProfileFieldsParams = type({ order: List(Int) });

export const UpdateOwnProfileDataParams = type({ data: List(ProfileDataEntry) });
