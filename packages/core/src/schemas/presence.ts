/** Input of POST /users/me/presence, GET /realm/presence and GET /users/{user_id_or_email}/presence. */
import { define, optional, type } from './known-structs.js';
import type { PresenceStatus } from '../presence/record.js';
import { defaulted, JsonBool, JsonInt, Str } from './wire.js';

/** A status the error may quote: long input is cut, so the answer never grows with it. */
const quoted = (value: string) => (value.length > 60 ? `${value.slice(0, 60)}…` : value);

/** `active` or `idle`; anything else is the reference's "Invalid status: …". */
const Status = define<PresenceStatus>('status', (v) => {
  if (typeof v !== 'string') return '{var} is not a string';
  return v === 'active' || v === 'idle' || `Invalid {var}: ${quoted(v)}`;
});

export const UpdatePresenceParams = type({
  status: Status,
  ping_only: defaulted(JsonBool, false),
  new_user_input: defaulted(JsonBool, false),
  slim_presence: defaulted(JsonBool, false),
  /** Set (even to -1): the client speaks the modern protocol and gets only newer changes. */
  last_update_id: optional(JsonInt),
  history_limit_days: optional(JsonInt),
});

export const GetRealmPresenceParams = type({});

export const GetUserPresenceParams = type({
  user_id_or_email: Str,
  slim_presence: defaulted(JsonBool, false),
});

export type UpdatePresenceInput = (typeof UpdatePresenceParams)['TYPE'];
