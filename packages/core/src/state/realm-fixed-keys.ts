/**
 * Keys of the register's `realm` section that describe what this server does rather than a
 * setting a realm can change: the reference sends each one (the mobile app requires several),
 * and each value says what is true here. Kept apart from realm.ts, which holds the realm's own
 * settings and limits.
 */
import { DEFAULT_EXTERNAL_ACCOUNTS } from '../profile-fields/types.js';
import { REPORT_TYPES } from '../schemas/message-report.js';
import { serverEmojiDataUrl } from '../emoji/server-data.js';
import { supportedPermissionSettings } from '../settings/permission-metadata.js';
import type { Realm } from '../storage/types.js';

/** realm_default_external_accounts: the default providers of EXTERNAL_ACCOUNT profile fields. */
const DEFAULT_EXTERNAL_ACCOUNTS_FOR_API: Readonly<Record<string, { text: string; url_pattern: string; name: string; hint: string }>> =
  Object.fromEntries(
    Object.entries(DEFAULT_EXTERNAL_ACCOUNTS).map(([subtype, { text, urlPattern, name, hint }]) => [
      subtype,
      { text, url_pattern: urlPattern, name, hint },
    ]),
  );

/** FL 435: the reasons POST /messages/{id}/report takes, with their labels, in the reference's order. */
const REPORT_MESSAGE_TYPES = Object.entries(REPORT_TYPES).map(([key, name]) => ({ key, name }));

/** The realm URL's host name; operators set the URL, so a malformed one gives "" rather than a failed register. */
function hostnameOf(url: string): string {
  try {
    return new URL(url).hostname;
  } catch {
    return '';
  }
}

/** The server's fixed facts for one realm; `iconUrl` doubles as the (default) logo. */
export function realmFixedKeys(realm: Realm, iconUrl: string) {
  return {
    realm_default_external_accounts: DEFAULT_EXTERNAL_ACCOUNTS_FOR_API,
    server_emoji_data_url: serverEmojiDataUrl(realm.url),
    // No thumbnails are generated: clients show uploaded images as they are.
    server_thumbnail_formats: [],
    server_report_message_types: REPORT_MESSAGE_TYPES,
    server_supported_permission_settings: supportedPermissionSettings(),
    // Video calls are the built-in provider's (see video-calls/provider.ts), chosen by video_chat_provider.
    realm_available_video_chat_providers: { disabled: { name: 'None', id: 0 }, jitsi_meet: { name: 'Jitsi Meet', id: 1 } },
    server_jitsi_server_url: null,
    jitsi_server_url: null,
    realm_jitsi_server_url: null,
    realm_logo_url: iconUrl,
    realm_logo_source: 'D',
    realm_night_logo_url: iconUrl,
    realm_night_logo_source: 'D',
    upgrade_text_for_wide_organization_logo: '',
    realm_bot_domain: hostnameOf(realm.url),
    // Accounts are made by invitation only, any email domain, and people may change their names,
    // emails (no such restriction exists here; avatars follow avatar_changes_disabled, in realm.ts).
    realm_invite_required: true,
    realm_emails_restricted_to_domains: false,
    realm_disallow_disposable_email_addresses: false,
    realm_name_changes_disabled: false,
    realm_email_changes_disabled: false,
    server_name_changes_disabled: false,
    realm_require_unique_names: false,
    // No digest or welcome email is sent by this server (push notifications: push/enabled.ts).
    realm_send_welcome_emails: false,
    realm_digest_emails_enabled: false,
    realm_digest_weekday: 1,
    settings_send_digest_emails: false,
    realm_message_content_allowed_in_email_notifications: true,
    // realm_push_notifications_enabled comes from the context (realm.ts: push/enabled.ts).
    realm_push_notifications_enabled_end_timestamp: null,
    realm_require_e2ee_push_notifications: false,
    realm_inline_image_preview: true,
    realm_inline_url_embed_preview: false,
    realm_default_code_block_language: '',
    realm_want_advertise_in_communities_directory: false,
    server_min_deactivated_realm_deletion_days: 14,
    server_max_deactivated_realm_deletion_days: null,
  };
}
