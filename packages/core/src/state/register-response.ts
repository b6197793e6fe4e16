/**
 * The answer of POST /register (SHAPES.md 2): the queue, the server's version and limits, and
 * the initial state of every section the client asked for (`fetch_event_types`, all when
 * absent). Field names are the wire's.
 */
import type { ApiStream, ApiSubscription, ApiGroupSettingValue } from '../format/channel.js';
import type { ApiChannelFolder } from '../format/channel-folder.js';
import type { ApiLinkifier } from '../format/linkifier.js';
import type { ApiPlayground } from '../format/playground.js';
import type { ApiProfileField } from '../format/profile-field.js';
import type { ApiRealmEmoji } from '../format/realm-emoji.js';
import type { ApiUser } from '../format/user.js';
import type { ApiUserGroup } from '../format/user-group.js';
import type { ApiUserStatus } from '../format/user-status.js';
import type { ApiDraft } from '../drafts/fields.js';
import type { BotRecord } from '../events/union/users.js';
import type { ApiMutedUser } from '../muting/muted-users.js';
import type { ApiPresence } from '../presence/read.js';
import type { ApiNeverSubscribed } from '../queries/channel-lists.js';
import type { ApiSavedSnippet } from '../queries/saved-snippets.js';
import type { ApiScheduledMessage } from '../scheduled/fields.js';
import type { ApiReminder } from '../scheduled/reminder-fields.js';
import type { UserSettingValues } from '../settings/user-settings.js';

/** The queue and server fields every register answer has, whatever was fetched. */
export interface RegisterQueueFields {
  /** null for spectators, who get a snapshot but no queue. */
  queue_id: string | null;
  /** -1 without a queue. */
  last_event_id: number;
  /** With a queue only: how long it lives without a poll. */
  idle_queue_timeout_secs?: number;
  service_feature_level: number;
  service_version: string;
  service_merge_base: string;
  zulip_feature_level: number;
  zulip_version: string;
  zulip_merge_base: string;
  max_message_length: number;
  max_topic_length: number;
  event_queue_longpoll_timeout_seconds: number;
  server_typing_started_wait_period_milliseconds: number;
  server_typing_stopped_wait_period_milliseconds: number;
  server_typing_started_expiry_period_milliseconds: number;
}

/** A saved view of the web app's navigation (`navigation_views`). */
export interface ApiNavigationView {
  fragment: string;
  is_pinned: boolean;
  name: string | null;
}

/** A user's policy for one topic (`user_topics`): 1 muted, 2 unmuted, 3 followed. */
export interface ApiUserTopic {
  stream_id: number;
  topic_name: string;
  /** UNIX seconds. */
  last_updated: number;
  visibility_policy: 1 | 2 | 3;
}

/** An email domain the realm admits (`realm_domains`). */
export interface ApiRealmDomain {
  domain: string;
  allow_subdomains: boolean;
}

/** A recent direct conversation (`recent_private_conversations`): the other participants. */
export interface ApiRecentConversation {
  max_message_id: number;
  user_ids: number[];
}

/** The user's unread messages (`unread_msgs`), grouped as the reference groups them. */
export interface UnreadMessages {
  count: number;
  pms: Array<{ other_user_id: number; sender_id: number; unread_message_ids: number[] }>;
  streams: Array<{ stream_id: number; topic: string; unread_message_ids: number[] }>;
  huddles: Array<{ user_ids_string: string; unread_message_ids: number[] }>;
  mentions: number[];
  old_unreads_missing: boolean;
}

/**
 * The initial state: each field is present when its section was fetched. Without the
 * `user_settings_object` capability the personal settings are repeated at the top level too.
 */
export interface InitialState {
  max_reminder_note_length?: number;
  max_stream_name_length?: number;
  max_stream_description_length?: number;
  max_channel_folder_name_length?: number;
  max_channel_folder_description_length?: number;
  max_file_upload_size_mib?: number;
  max_avatar_file_size_mib?: number;
  server_avatar_changes_disabled?: boolean;
  max_icon_file_size_mib?: number;
  max_logo_file_size_mib?: number;
  max_bulk_new_subscription_messages?: number;
  server_presence_ping_interval_seconds?: number;
  server_presence_offline_threshold_seconds?: number;
  realm_empty_topic_display_name?: string;
  realm_mandatory_topics?: boolean;
  realm_allow_edit_history?: boolean;
  realm_name?: string;
  realm_description?: string;
  realm_url?: string;
  realm_uri?: string;
  realm_date_created?: number;
  realm_icon_url?: string;
  realm_icon_source?: string;
  realm_uuid?: string;
  realm_enable_spectator_access?: boolean;
  realm_web_public_access_enabled?: boolean;
  realm_default_avatar_source?: "G" | "J";
  realm_email_auth_enabled?: boolean;
  realm_password_auth_enabled?: boolean;
  realm_authentication_methods?: { Email: { enabled: boolean; available: boolean } };
  realm_plan_type?: number;
  realm_org_type?: number;
  realm_upload_quota_mib?: number | null;
  password_min_length?: number;
  password_max_length?: number;
  password_min_guesses?: number;
  server_generation?: number;
  zulip_plan_is_not_limited?: boolean;
  development_environment?: boolean;
  server_needs_upgrade?: boolean;
  server_web_public_streams_enabled?: boolean;
  server_inline_image_preview?: boolean;
  server_inline_url_embed_preview?: boolean;
  server_can_summarize_topics?: boolean;
  realm_default_external_accounts?: Record<string, unknown>;
  server_emoji_data_url?: string;
  server_thumbnail_formats?: unknown[];
  server_report_message_types?: Array<{ key: string; name: string }>;
  server_supported_permission_settings?: Record<string, unknown>;
  realm_available_video_chat_providers?: Record<string, { name: string; id: number }>;
  server_jitsi_server_url?: string | null;
  jitsi_server_url?: string | null;
  realm_jitsi_server_url?: string | null;
  realm_logo_url?: string;
  realm_logo_source?: string;
  realm_night_logo_url?: string;
  realm_night_logo_source?: string;
  upgrade_text_for_wide_organization_logo?: string;
  realm_bot_domain?: string;
  realm_invite_required?: boolean;
  realm_emails_restricted_to_domains?: boolean;
  realm_disallow_disposable_email_addresses?: boolean;
  realm_name_changes_disabled?: boolean;
  realm_email_changes_disabled?: boolean;
  server_name_changes_disabled?: boolean;
  realm_require_unique_names?: boolean;
  realm_send_welcome_emails?: boolean;
  realm_digest_emails_enabled?: boolean;
  realm_digest_weekday?: number;
  settings_send_digest_emails?: boolean;
  realm_message_content_allowed_in_email_notifications?: boolean;
  realm_push_notifications_enabled_end_timestamp?: number | null;
  realm_require_e2ee_push_notifications?: boolean;
  realm_inline_image_preview?: boolean;
  realm_inline_url_embed_preview?: boolean;
  realm_default_code_block_language?: string;
  realm_want_advertise_in_communities_directory?: boolean;
  server_min_deactivated_realm_deletion_days?: number;
  server_max_deactivated_realm_deletion_days?: number | null;
  realm_push_notifications_enabled?: boolean;
  realm_new_stream_announcements_stream_id?: number;
  realm_signup_announcements_stream_id?: number;
  realm_zulip_update_announcements_stream_id?: number;
  realm_moderation_request_channel_id?: number;
  realm_welcome_message_custom_text?: string;
  realm_message_retention_days?: number;
  realm_allow_message_editing?: boolean;
  realm_message_content_edit_limit_seconds?: number | null;
  realm_message_content_delete_limit_seconds?: number | null;
  realm_move_messages_within_stream_limit_seconds?: number | null;
  realm_move_messages_between_streams_limit_seconds?: number | null;
  realm_message_edit_history_visibility_policy?: string;
  realm_topics_policy?: string;
  realm_waiting_period_threshold?: number;
  realm_default_language?: string;
  realm_video_chat_provider?: number;
  realm_enable_read_receipts?: boolean;
  realm_presence_disabled?: boolean;
  realm_enable_guest_user_indicator?: boolean;
  realm_enable_guest_user_dm_warning?: boolean;
  realm_avatar_changes_disabled?: boolean;
  realm_can_access_all_users_group?: ApiGroupSettingValue;
  realm_can_add_custom_emoji_group?: ApiGroupSettingValue;
  realm_can_add_subscribers_group?: ApiGroupSettingValue;
  realm_can_create_bots_group?: ApiGroupSettingValue;
  realm_can_create_groups?: ApiGroupSettingValue;
  realm_can_create_private_channel_group?: ApiGroupSettingValue;
  realm_can_create_public_channel_group?: ApiGroupSettingValue;
  realm_can_create_web_public_channel_group?: ApiGroupSettingValue;
  realm_can_create_write_only_bots_group?: ApiGroupSettingValue;
  realm_can_delete_any_message_group?: ApiGroupSettingValue;
  realm_can_delete_own_message_group?: ApiGroupSettingValue;
  realm_can_invite_users_group?: ApiGroupSettingValue;
  realm_can_manage_all_groups?: ApiGroupSettingValue;
  realm_can_manage_billing_group?: ApiGroupSettingValue;
  realm_can_mention_many_users_group?: ApiGroupSettingValue;
  realm_can_move_messages_between_channels_group?: ApiGroupSettingValue;
  realm_can_move_messages_between_topics_group?: ApiGroupSettingValue;
  realm_can_resolve_topics_group?: ApiGroupSettingValue;
  realm_can_set_delete_message_policy_group?: ApiGroupSettingValue;
  realm_can_set_topics_policy_group?: ApiGroupSettingValue;
  realm_can_summarize_topics_group?: ApiGroupSettingValue;
  realm_create_multiuse_invite_group?: ApiGroupSettingValue;
  realm_direct_message_initiator_group?: ApiGroupSettingValue;
  realm_direct_message_permission_group?: ApiGroupSettingValue;
  realm_create_public_stream_policy?: number;
  realm_create_private_stream_policy?: number;
  realm_create_web_public_stream_policy?: number;
  realm_wildcard_mention_policy?: number;
  realm_users?: ApiUser[];
  realm_non_active_users?: ApiUser[];
  cross_realm_bots?: ApiUser[];
  user_id?: number;
  email?: string;
  delivery_email?: string;
  full_name?: string;
  avatar_source?: string;
  /** null when the client said `client_gravatar` and the user's avatar is their Gravatar. */
  avatar_url?: string | null;
  avatar_url_medium?: string | null;
  is_admin?: boolean;
  is_owner?: boolean;
  is_moderator?: boolean;
  is_guest?: boolean;
  can_create_streams?: boolean;
  can_create_public_streams?: boolean;
  can_create_private_streams?: boolean;
  can_create_web_public_streams?: boolean;
  can_subscribe_other_users?: boolean;
  can_invite_others_to_realm?: boolean;
  realm_bots?: BotRecord[];
  user_settings?: UserSettingValues;
  /** null: the locale's default (FL 408). */
  twenty_four_hour_time?: boolean | null;
  starred_message_counts?: boolean;
  fluid_layout_width?: boolean;
  high_contrast_mode?: boolean;
  color_scheme?: number;
  translate_emoticons?: boolean;
  default_language?: string;
  web_home_view?: string;
  left_side_userlist?: boolean;
  emojiset?: string;
  demote_inactive_streams?: number;
  enter_sends?: boolean;
  enable_drafts_synchronization?: boolean;
  enable_stream_desktop_notifications?: boolean;
  enable_stream_email_notifications?: boolean;
  enable_stream_push_notifications?: boolean;
  enable_stream_audible_notifications?: boolean;
  notification_sound?: string;
  enable_desktop_notifications?: boolean;
  enable_sounds?: boolean;
  email_notifications_batching_period_seconds?: number;
  enable_offline_email_notifications?: boolean;
  enable_offline_push_notifications?: boolean;
  enable_online_push_notifications?: boolean;
  enable_digest_emails?: boolean;
  enable_marketing_emails?: boolean;
  enable_login_emails?: boolean;
  message_content_in_email_notifications?: boolean;
  pm_content_in_desktop_notifications?: boolean;
  wildcard_mentions_notify?: boolean;
  desktop_icon_count_display?: number;
  realm_name_in_email_notifications_policy?: number;
  presence_enabled?: boolean;
  available_notification_sounds?: readonly string[];
  emojiset_choices?: ReadonlyArray<{ key: string; text: string }>;
  timezone?: string;
  subscriptions?: ApiSubscription[];
  unsubscribed?: ApiSubscription[];
  never_subscribed?: ApiNeverSubscribed[];
  streams?: ApiStream[];
  realm_default_streams?: number[];
  max_message_id?: number;
  unread_msgs?: UnreadMessages;
  realm_emoji?: Record<string, ApiRealmEmoji>;
  starred_messages?: number[];
  alert_words?: string[];
  custom_profile_fields?: ApiProfileField[];
  custom_profile_field_types?: Readonly<Record<string, { id: number; name: string; }>>;
  navigation_views?: ApiNavigationView[];
  drafts?: ApiDraft[];
  realm_linkifiers?: ApiLinkifier[];
  realm_filters?: [string, string, number][];
  has_videoprovider_token?: boolean;
  realm_user_groups?: ApiUserGroup[];
  scheduled_messages?: ApiScheduledMessage[];
  saved_snippets?: ApiSavedSnippet[];
  devices?: Record<string, Record<string, unknown>>;
  realm_user_settings_defaults?: Record<string, unknown>;
  realm_domains?: ApiRealmDomain[];
  user_topics?: ApiUserTopic[];
  muted_topics?: [string, string, number][];
  channel_folders?: ApiChannelFolder[];
  reminders?: ApiReminder[];
  realm_playgrounds?: ApiPlayground[];
  user_status?: Record<string, ApiUserStatus>;
  muted_users?: ApiMutedUser[];
  recent_private_conversations?: ApiRecentConversation[];
  stop_words?: string[];
  realm_default_stream_groups?: unknown[];
  onboarding_steps?: unknown[];
  navigation_tour_video_url?: string | null;
  realm_embedded_bots?: unknown[];
  realm_incoming_webhook_bots?: unknown[];
  realm_billing?: { has_pending_sponsorship_request: boolean; };
  giphy_api_key?: string;
  presences?: Record<string, ApiPresence>;
  presence_last_update_id?: number;
  server_timestamp?: number;
}

/** POST /register's answer: the queue fields and the sections fetched. */
export interface RegisterResponse extends RegisterQueueFields, InitialState {}
