/** Input of the custom profile field endpoints (API.md 4.7, 4.12; SHAPES.md 6.15). */
import { define, optional, type } from './known-structs.js';
import { ProfileDataEntry } from './users.js';
import { fromText, Int, json, JsonBool, JsonInt, List, PathInt, Str } from './wire.js';

/** A JSON object (the reference's check_dict): sent as an object or as JSON text. */
const Dict = define<Record<string, unknown>>('dict', (v) => (typeof v === 'object' && v !== null && !Array.isArray(v)) || '{var} is not a dict');

/**
 * `field_data`: a JSON object, or the JSON string the reference serialises it as (README:
 * "accept both on input"), so a client echoing a field back sends it double-encoded; `""` is
 * the reference's "no data".
 */
const FieldData = json(fromText(Dict, (text) => (text === '' ? {} : reparse(text))));

function reparse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

export const GetProfileFieldsParams = type({});

export const CreateProfileFieldParams = type({
  name: optional(Str),
  hint: optional(Str),
  field_type: JsonInt,
  field_data: optional(FieldData),
  display_in_profile_summary: optional(JsonBool),
  required: optional(JsonBool),
  editable_by_user: optional(JsonBool),
  use_for_user_matching: optional(JsonBool),
});

export const UpdateProfileFieldParams = type({
  field_id: PathInt,
  name: optional(Str),
  hint: optional(Str),
  field_data: optional(FieldData),
  display_in_profile_summary: optional(JsonBool),
  required: optional(JsonBool),
  editable_by_user: optional(JsonBool),
  use_for_user_matching: optional(JsonBool),
});

export const DeleteProfileFieldParams = type({ field_id: PathInt });

export const ReorderProfileFieldsParams = type({ order: List(Int) });

export const UpdateOwnProfileDataParams = type({ data: List(ProfileDataEntry) });
