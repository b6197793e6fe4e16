/**
 * Realm settings and their defaults: the one place that says what a realm's setting is when
 * the realm never changed it. Realms store only the values that differ (Realm.settings, keyed
 * by API name without the `realm_` prefix), so a default changed here applies to every realm
 * that kept it.
 */
import type { Realm, SettingValue, StoredGroupSetting } from '../storage/types.js';

/** The realm's `can_*_group`-style permission settings and the reference's defaults (SHAPES.md 2.5). */
export const REALM_GROUP_SETTING_DEFAULTS = {
  can_access_all_users_group: 'role:everyone',
  can_add_custom_emoji_group: 'role:members',
  can_add_subscribers_group: 'role:members',
  can_create_bots_group: 'role:members',
  can_create_groups: 'role:members',
  can_create_private_channel_group: 'role:members',
  can_create_public_channel_group: 'role:members',
  can_create_web_public_channel_group: 'role:owners',
  can_create_write_only_bots_group: 'role:members',
  can_delete_any_message_group: 'role:administrators',
  can_delete_own_message_group: 'role:everyone',
  can_invite_users_group: 'role:members',
  can_manage_all_groups: 'role:owners',
  can_manage_billing_group: 'role:administrators',
  can_mention_many_users_group: 'role:administrators',
  can_move_messages_between_channels_group: 'role:members',
  can_move_messages_between_topics_group: 'role:everyone',
  can_resolve_topics_group: 'role:everyone',
  can_set_delete_message_policy_group: 'role:moderators',
  can_set_topics_policy_group: 'role:moderators',
  can_summarize_topics_group: 'role:everyone',
  create_multiuse_invite_group: 'role:administrators',
  direct_message_initiator_group: 'role:everyone',
  direct_message_permission_group: 'role:everyone',
} as const satisfies Record<string, StoredGroupSetting>;

export type RealmGroupSettingName = keyof typeof REALM_GROUP_SETTING_DEFAULTS;

/**
 * The realm's plain settings and their defaults; -1 is the API's "no channel", null "no time
 * limit". The editing limits keep the values the server used before realms stored their own.
 */
export const REALM_SETTING_DEFAULTS = {
  new_stream_announcements_stream_id: -1,
  signup_announcements_stream_id: -1,
  zulip_update_announcements_stream_id: -1,
  moderation_request_channel_id: -1,
  welcome_message_custom_text: '',
  /** Days messages are kept; -1 is forever (the reference's "unlimited"). */
  message_retention_days: -1,
  allow_message_editing: true,
  message_content_edit_limit_seconds: 600 as number | null,
  message_content_delete_limit_seconds: null as number | null,
  move_messages_within_stream_limit_seconds: 604800 as number | null,
  move_messages_between_streams_limit_seconds: 604800 as number | null,
  message_edit_history_visibility_policy: 'all',
  /** What channels whose topics_policy is `inherit` follow: `allow_empty_topic` or `disable_empty_topic`. */
  topics_policy: 'allow_empty_topic',
  waiting_period_threshold: 0,
  default_language: 'en',
  video_chat_provider: 1,
  /** Whether members may see who read a message (GET /messages/{message_id}/read_receipts). */
  enable_read_receipts: true,
} as const satisfies Record<string, SettingValue>;

export type RealmSettingName = keyof typeof REALM_SETTING_DEFAULTS;

/** A realm's group setting, or its default. */
export function realmGroupSetting(realm: Pick<Realm, 'settings'>, name: RealmGroupSettingName): StoredGroupSetting {
  return (realm.settings[name] as StoredGroupSetting | undefined) ?? REALM_GROUP_SETTING_DEFAULTS[name];
}

/** A realm's plain setting, or its default. */
export function realmSetting<N extends RealmSettingName>(realm: Pick<Realm, 'settings'>, name: N): Widen<(typeof REALM_SETTING_DEFAULTS)[N]> {
  const stored = realm.settings[name] as SettingValue | undefined;
  return (stored === undefined ? REALM_SETTING_DEFAULTS[name] : stored) as never;
}

/** A default's type without its literal: `600 as number | null` stays so, `true` becomes boolean. */
type Widen<T> = T extends boolean ? boolean : T extends string ? string : T;
