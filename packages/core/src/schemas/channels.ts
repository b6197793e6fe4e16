/** Input of the channel and subscription endpoints (SHAPES.md 6.8–6.10; the OpenAPI's parameters). */
import { union } from 'superstruct';
import { object, optional, type } from './known-structs.js';
import { CHANNEL_GROUP_SETTINGS, type ChannelGroupSetting } from '../access/channel-rules.js';
import type { TopicsPolicy } from '../storage/types.js';
import { GroupSettingChangeParam, GroupSettingValueParam } from './group-setting.js';
import { IncludeSubscribers } from './events.js';
import { array, Bool, defaulted, fromText, Int, json, JsonBool, JsonInt, List, nullable, OneOf, PathInt, Str, Text } from './wire.js';

/** The reference's limit on channel descriptions (max_stream_description_length). */
export const MAX_DESCRIPTION_LENGTH = 1024;
/** The reference's limit on channel names (max_stream_name_length). */
export const MAX_CHANNEL_NAME_LENGTH = 60;

/**
 * message_retention_days: JSON, an integer or "unlimited" / "realm_default" (checked by
 * parseRetentionDays). The two words are accepted unquoted too, as clients often send them.
 */
const RetentionDays = fromText(json(union([Int, Str])), (s) => (s === 'unlimited' || s === 'realm_default' ? JSON.stringify(s) : s));

/**
 * topics_policy: raw text on PATCH, JSON text on channel creation in the reference; both
 * spellings are accepted on both.
 */
const TopicsPolicyParam = fromText(
  OneOf(['inherit', 'allow_empty_topic', 'disable_empty_topic', 'empty_topic_only'] as const satisfies readonly TopicsPolicy[]),
  (s) => (s.startsWith('"') && s.endsWith('"') && s.length >= 2 ? s.slice(1, -1) : s),
);

/** User IDs (preferred) or API emails; one kind per list. */
const Principals = json(union([array(Int), array(Str)]));

const OptionalValue = optional(GroupSettingValueParam);
const OptionalChange = optional(GroupSettingChangeParam);

/** The channel `can_*_group` settings on creation: a plain group-setting value each. */
const groupSettingValues = Object.fromEntries(CHANNEL_GROUP_SETTINGS.map((name) => [name, OptionalValue])) as Record<
  ChannelGroupSetting,
  typeof OptionalValue
>;

/** The same settings on PATCH /streams/{id}: `{new, old}` only, as the reference's GroupSettingChangeRequest. */
const groupSettingChanges = Object.fromEntries(CHANNEL_GROUP_SETTINGS.map((name) => [name, OptionalChange])) as Record<
  ChannelGroupSetting,
  typeof OptionalChange
>;

/** One entry of `subscriptions`: unknown keys are refused, as the reference's strict model does. */
const SubscriptionRequest = object({
  name: Str,
  description: optional(Text({ max: MAX_DESCRIPTION_LENGTH, noNul: true })),
  color: optional(Str),
});

/** The creation settings both channel-creating endpoints take (SHAPES.md 6.8; the OpenAPI's create_channel_request). */
const CHANNEL_CREATION_FIELDS = {
  announce: defaulted(JsonBool, false),
  invite_only: defaulted(JsonBool, false),
  is_web_public: defaulted(JsonBool, false),
  is_default_stream: defaulted(JsonBool, false),
  history_public_to_subscribers: optional(JsonBool),
  message_retention_days: optional(RetentionDays),
  topics_policy: optional(TopicsPolicyParam),
  folder_id: optional(JsonInt),
  default_push_notifications: optional(JsonBool),
  ...groupSettingValues,
};

export const SubscribeParams = type({
  subscriptions: List(SubscriptionRequest),
  principals: optional(Principals),
  authorization_errors_fatal: defaulted(JsonBool, true),
  ...CHANNEL_CREATION_FIELDS,
});

/** POST /channels/create (FL 417): one channel by name, its first subscribers by ID, and the creation settings. */
export const CreateChannelParams = type({
  name: Text({ max: 1000 }),
  description: defaulted(Text({ max: MAX_DESCRIPTION_LENGTH, noNul: true }), ''),
  subscribers: json(array(Int)),
  ...CHANNEL_CREATION_FIELDS,
});

export const UnsubscribeParams = type({
  subscriptions: List(Str),
  principals: optional(Principals),
});

export const GetSubscriptionsParams = type({
  include_subscribers: defaulted(IncludeSubscribers, false),
});

const PropertyChange = object({ stream_id: Int, property: Str, value: union([Bool, Str]) });

export const SubscriptionPropertiesParams = type({
  subscription_data: List(PropertyChange),
});

export const GetStreamsParams = type({
  include_public: defaulted(JsonBool, true),
  include_web_public: defaulted(JsonBool, false),
  include_subscribed: defaulted(JsonBool, true),
  exclude_archived: defaulted(JsonBool, true),
  include_all: defaulted(JsonBool, false),
  include_all_active: defaulted(JsonBool, false),
  include_default: defaulted(JsonBool, false),
  include_owner_subscribed: defaulted(JsonBool, false),
  include_can_access_content: defaulted(JsonBool, false),
});

export const StreamPathParams = type({ stream_id: PathInt });

export const UpdateStreamParams = type({
  stream_id: PathInt,
  description: optional(Text({ max: MAX_DESCRIPTION_LENGTH, noNul: true })),
  new_name: optional(Str),
  is_private: optional(JsonBool),
  is_web_public: optional(JsonBool),
  history_public_to_subscribers: optional(JsonBool),
  is_default_stream: optional(JsonBool),
  is_archived: optional(JsonBool),
  message_retention_days: optional(RetentionDays),
  topics_policy: optional(TopicsPolicyParam),
  /** null takes the channel out of its folder. */
  folder_id: optional(json(nullable(Int))),
  default_push_notifications: optional(JsonBool),
  ...groupSettingChanges,
});

export const GetStreamIdParams = type({ stream: Str });

export const DefaultStreamParams = type({ stream_id: JsonInt });

export const GetDefaultStreamsParams = type({});

/** GET /users/{user_id}/subscriptions/{stream_id}. */
export const SubscriptionStatusParams = type({ user_id: PathInt, stream_id: PathInt });
