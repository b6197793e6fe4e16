/** Input of PATCH /realm (the reference's update_realm parameters this server supports). */
import { union } from 'superstruct';
import { optional, type } from './known-structs.js';
import { REALM_GROUP_SETTING_DEFAULTS, type RealmGroupSettingName } from '../settings/realm-settings.js';
import { GroupSettingChangeParam } from './group-setting.js';
import { IntRange, json, JsonBool, JsonInt, Int, OneOf, Str, Text } from './wire.js';

/** The reference's Realm.MAX_REALM_NAME_LENGTH, MAX_REALM_DESCRIPTION_LENGTH and welcome text limit. */
export const MAX_REALM_NAME_LENGTH = 40;
export const MAX_REALM_DESCRIPTION_LENGTH = 1000;
export const MAX_WELCOME_MESSAGE_LENGTH = 8000;

/** MessageEditHistoryVisibilityPolicyEnum and RealmTopicsPolicyEnum, by API name. */
export const EDIT_HISTORY_POLICIES = ['all', 'moves', 'none'] as const;
export const REALM_TOPICS_POLICIES = ['allow_empty_topic', 'disable_empty_topic'] as const;

/** A time limit: seconds, or the special value "unlimited" (checked by the action). */
const TimeLimit = json(union([Int, Str]));

const OptionalChange = optional(GroupSettingChangeParam);

const groupSettingParams = Object.fromEntries(
  (Object.keys(REALM_GROUP_SETTING_DEFAULTS) as RealmGroupSettingName[]).map((name) => [name, optional(GroupSettingChangeParam)]),
) as Record<RealmGroupSettingName, typeof OptionalChange>;

export const UpdateRealmParams = type({
  name: optional(Text({ max: MAX_REALM_NAME_LENGTH, printable: true })),
  description: optional(Text({ max: MAX_REALM_DESCRIPTION_LENGTH, noNul: true })),
  allow_message_editing: optional(JsonBool),
  message_content_edit_limit_seconds: optional(TimeLimit),
  message_content_delete_limit_seconds: optional(TimeLimit),
  move_messages_within_stream_limit_seconds: optional(TimeLimit),
  move_messages_between_streams_limit_seconds: optional(TimeLimit),
  message_edit_history_visibility_policy: optional(OneOf(EDIT_HISTORY_POLICIES)),
  new_stream_announcements_stream_id: optional(JsonInt),
  signup_announcements_stream_id: optional(JsonInt),
  zulip_update_announcements_stream_id: optional(JsonInt),
  moderation_request_channel_id: optional(JsonInt),
  welcome_message_custom_text: optional(Text({ max: MAX_WELCOME_MESSAGE_LENGTH })),
  topics_policy: optional(OneOf(REALM_TOPICS_POLICIES)),
  mandatory_topics: optional(JsonBool),
  waiting_period_threshold: optional(json(IntRange(0, 2 ** 31 - 1))),
  enable_spectator_access: optional(JsonBool),
  default_language: optional(Str),
  video_chat_provider: optional(JsonInt),
  enable_read_receipts: optional(JsonBool),
  presence_disabled: optional(JsonBool),
  enable_guest_user_indicator: optional(JsonBool),
  enable_guest_user_dm_warning: optional(JsonBool),
  avatar_changes_disabled: optional(JsonBool),
  ...groupSettingParams,
});

export type UpdateRealmInput = (typeof UpdateRealmParams)['TYPE'];
