/** Input of the invitation endpoints (API.md 4.5, 4.6; FACTS.md 6.4; SHAPES.md 6.16). */
import { nullable, optional, type } from './known-structs.js';
import { ROLES } from '../storage/types.js';
import { array, defaulted, Int, IntOneOf, IntRange, json, JsonBool, List, PathInt, Str, Text } from './wire.js';

/** The reference's Realm.MAX_REALM_WELCOME_MESSAGE_CUSTOM_TEXT_LENGTH (API.md 8). */
export const WELCOME_MESSAGE_CUSTOM_TEXT_MAX = 8000;

/**
 * What both kinds of invitation take. invite_expires_in_minutes: omitted = the server default,
 * null = never; a value must be a positive number of minutes (zero or less would make an
 * invitation that is expired at birth). Its upper bound keeps the expiry an exact integer.
 */
const common = {
  invite_expires_in_minutes: optional(json(nullable(IntRange(1, Math.floor(Number.MAX_SAFE_INTEGER / 120))))),
  invite_as: defaulted(json(IntOneOf(ROLES)), 400),
  group_ids: optional(json(nullable(array(Int)))),
  include_realm_default_subscriptions: defaulted(JsonBool, false),
  welcome_message_custom_text: optional(nullable(Text({ max: WELCOME_MESSAGE_CUSTOM_TEXT_MAX }))),
};

export const InviteUsersParams = type({
  ...common,
  invitee_emails: Str,
  stream_ids: List(Int),
  notify_referrer_on_join: defaulted(JsonBool, true),
});

export const CreateMultiuseInviteParams = type({
  ...common,
  stream_ids: optional(json(nullable(array(Int)))),
});

export const GetInvitesParams = type({});

export const InviteIdParams = type({ invite_id: PathInt });

/** POST /invites/accept: `email` is required for a reusable link only. */
export const AcceptInviteParams = type({
  key: Str,
  full_name: Str,
  password: Str,
  email: optional(Str),
});
