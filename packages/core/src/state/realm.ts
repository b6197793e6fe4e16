import { realmDescriptionHtml, realmIconUrl } from '../format/realm-description.js';
import { USER_LIMITS } from '../config.js';
import type { Ctx } from '../context.js';
import { defineSection } from './sections.js';
import { realmFixedKeys } from './realm-fixed-keys.js';
import { pushNotificationsEnabled } from '../push/enabled.js';
import { legacyRealmPolicies } from '../settings/legacy-policies.js';
import { groupSettingForApi } from '../access/system-groups.js';
import {
  REALM_GROUP_SETTING_DEFAULTS,
  REALM_SETTING_DEFAULTS,
  realmGroupSetting,
  realmSetting,
  type RealmGroupSettingName,
  type RealmSettingName,
} from '../settings/realm-settings.js';
import type { Realm } from '../storage/types.js';
import type { ApiGroupSettingValue } from '../format/channel.js';


/** The stored realm settings under their register names, `realm_` + the API name. */
type StoredRealmSettings = { [N in RealmSettingName as `realm_${N}`]: ReturnType<typeof realmSetting<N>> } & {
  [N in RealmGroupSettingName as `realm_${N}`]: ApiGroupSettingValue;
};

/** Every stored realm setting under its register name. */
function storedRealmSettings(realm: Realm): StoredRealmSettings {
  const out: Record<string, unknown> = {};
  for (const name of Object.keys(REALM_SETTING_DEFAULTS) as RealmSettingName[]) out[`realm_${name}`] = realmSetting(realm, name);
  for (const name of Object.keys(REALM_GROUP_SETTING_DEFAULTS) as RealmGroupSettingName[]) {
    out[`realm_${name}`] = groupSettingForApi(realmGroupSetting(realm, name));
  }
  // Filled from the two tables the type is mapped from.
  return out as StoredRealmSettings;
}

/**
 * `server_generation` names the running server, not the moment of a register: clients compare
 * it across registers to notice a restart, so it is fixed at the first register of a context.
 */
const generations = new WeakMap<Ctx, number>();
function serverGeneration(ctx: Ctx): number {
  let generation = generations.get(ctx);
  if (generation === undefined) generations.set(ctx, (generation = Math.floor(ctx.clock.now() / 1000)));
  return generation;
}

/** The `realm` section: realm settings and the server's limits (SHAPES.md 2.5). */
export const realmSection = defineSection({
  key: 'realm',
  async fetch(ctx, _tx, { realm, user }) {
    const config = ctx.config;
    const icon = realmIconUrl(realm);
    return {
      max_message_length: config.maxMessageLength,
      max_topic_length: config.maxTopicLength,
      max_reminder_note_length: config.maxReminderNoteLength,
      max_stream_name_length: 60,
      max_stream_description_length: 1024,
      max_channel_folder_name_length: 60,
      max_channel_folder_description_length: 1024,
      max_file_upload_size_mib: config.maxFileUploadSizeMib,
      max_avatar_file_size_mib: config.maxAvatarFileSizeMib,
      server_avatar_changes_disabled: config.avatarChangesDisabled,
      max_icon_file_size_mib: 5,
      max_logo_file_size_mib: 5,
      max_bulk_new_subscription_messages: 100,
      event_queue_longpoll_timeout_seconds: config.eventQueueLongpollTimeoutSeconds,
      server_typing_started_wait_period_milliseconds: config.typingStartedWaitPeriodMs,
      server_typing_stopped_wait_period_milliseconds: config.typingStoppedWaitPeriodMs,
      server_typing_started_expiry_period_milliseconds: config.typingStartedExpiryPeriodMs,
      server_presence_ping_interval_seconds: config.presencePingIntervalSeconds,
      server_presence_offline_threshold_seconds: config.presenceOfflineThresholdSeconds,
      realm_empty_topic_display_name: 'general chat',
      // The deprecated boolean forms of topics_policy and message_edit_history_visibility_policy.
      realm_mandatory_topics: realmSetting(realm, 'topics_policy') === 'disable_empty_topic',
      realm_allow_edit_history: realmSetting(realm, 'message_edit_history_visibility_policy') !== 'none',
      realm_name: realm.name,
      realm_description: realmDescriptionHtml(ctx, realm),
      realm_url: realm.url,
      realm_uri: realm.url,
      realm_date_created: realm.dateCreated,
      realm_icon_url: icon,
      realm_icon_source: 'G',
      realm_uuid: realm.uuid,
      realm_enable_spectator_access: realm.webPublicAccessEnabled,
      realm_web_public_access_enabled: realm.webPublicAccessEnabled,
      realm_default_avatar_source: realm.defaultAvatarSource,
      realm_email_auth_enabled: realm.emailAuthEnabled,
      realm_password_auth_enabled: realm.emailAuthEnabled,
      realm_authentication_methods: { Email: { enabled: realm.emailAuthEnabled, available: true } },
      realm_plan_type: 1,
      realm_org_type: 0,
      realm_upload_quota_mib: null,
      password_min_length: USER_LIMITS.passwordMin,
      password_max_length: USER_LIMITS.passwordMax,
      password_min_guesses: 0,
      server_generation: serverGeneration(ctx),
      zulip_plan_is_not_limited: true,
      development_environment: false,
      server_needs_upgrade: false,
      server_web_public_streams_enabled: realm.webPublicAccessEnabled,
      server_inline_image_preview: true,
      server_inline_url_embed_preview: false,
      server_can_summarize_topics: false,
      ...realmFixedKeys(realm, icon),
      realm_push_notifications_enabled: pushNotificationsEnabled(ctx),
      ...storedRealmSettings(realm),
      ...legacyRealmPolicies(realm),
      // Spectators send no presence, see no user list and edit nothing, as the reference tells them.
      ...(user ? {} : { realm_presence_disabled: true, realm_allow_message_editing: false }),
    };
  },
});
