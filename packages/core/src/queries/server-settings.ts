import { ok } from 'neverthrow';
import { type } from '../schemas/known-structs.js';
import type { Ctx } from '../context.js';
import { serializeOnce } from '../format/json.js';
import { realmDescriptionHtml, realmIconUrl } from '../format/realm-description.js';
import { publicOperation } from '../operation.js';
import { pushNotificationsEnabled } from '../push/enabled.js';
import type { Realm } from '../storage/types.js';

/**
 * GET /server_settings (API.md 4.22): no authentication. The version keys are sent under both
 * the service_* names and the zulip_* names existing clients look for.
 *
 * The answer depends only on the realm's fields and the server's configuration, so it is built
 * once per realm (ctx.realmMemo, keyed by every value it reads) and its JSON text is kept with it
 * (serializeOnce). The object returned is shared between calls and must not be changed.
 */
export const getServerSettings = publicOperation(type({}), async (ctx, caller) => {
  const { realm } = caller;
  const { featureLevel, version, mergeBase } = ctx.config;
  const key = [
    realm.emailAuthEnabled,
    realm.url,
    realm.name,
    realm.uuid,
    realm.description,
    realm.webPublicAccessEnabled,
    featureLevel,
    version,
    mergeBase,
    pushNotificationsEnabled(ctx),
  ];
  // A description with <time:…> renders differently as days pass: such an answer is built each time.
  if (realm.description.includes('<time:')) return ok(settingsOf(ctx, realm));
  return ok(ctx.realmMemo.get('server_settings', realm.id, key, () => serializeOnce(settingsOf(ctx, realm))));
});

function settingsOf(ctx: Ctx, realm: Realm) {
  const { featureLevel, version, mergeBase } = ctx.config;
  const password = realm.emailAuthEnabled;
  return {
    authentication_methods: {
      password,
      dev: false,
      email: password,
      ldap: false,
      remoteuser: false,
      codehost_a: false,
      directory_a: false,
      codehost_b: false,
      vendor_a: false,
      vendor_b: false,
      chat_vendor_a: false,
      saml: false,
      'openid connect': false,
    },
    external_authentication_methods: [],
    service_feature_level: featureLevel,
    service_version: version,
    service_merge_base: mergeBase,
    zulip_feature_level: featureLevel,
    zulip_version: version,
    zulip_merge_base: mergeBase,
    push_notifications_enabled: pushNotificationsEnabled(ctx),
    is_incompatible: false,
    email_auth_enabled: password,
    require_email_format_usernames: true,
    realm_url: realm.url,
    realm_uri: realm.url,
    realm_name: realm.name,
    realm_icon: realmIconUrl(realm),
    realm_description: realmDescriptionHtml(ctx, realm),
    realm_web_public_access_enabled: realm.webPublicAccessEnabled,
  };
}
