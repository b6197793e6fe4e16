/** Input of the user status endpoints (openapi update-status, get-user-status). */
import { optional, type } from './known-structs.js';
import { fromText, JsonBool, PathInt, Str, Text } from './wire.js';

/** The reference's limit on a status text, in characters, counted once the text is stripped. */
export const MAX_STATUS_TEXT_LENGTH = 60;

/** Whitespace around a status text is dropped before its length is checked, as the reference does. */
const StatusText = fromText(Text({ max: MAX_STATUS_TEXT_LENGTH }), (text) => text.trim());

/**
 * The fields of a status change; each is optional and an absent one is left as it is. The emoji
 * name, code and type are checked together by the action (as a reaction's are).
 */
const statusFields = {
  status_text: optional(StatusText),
  emoji_name: optional(Str),
  emoji_code: optional(Str),
  reaction_type: optional(Str),
};

/** POST /users/me/status: `away` is the deprecated inverse of the presence_enabled setting. */
export const UpdateOwnStatusParams = type({ ...statusFields, away: optional(JsonBool) });

/** POST /users/{user_id}/status (administrators): the same fields, without `away`. */
export const UpdateUserStatusParams = type({ ...statusFields, user_id: PathInt });

/** GET /users/{user_id}/status. */
export const GetUserStatusParams = type({ user_id: PathInt });
