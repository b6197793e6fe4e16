import { createHash } from 'node:crypto';
import { ok } from 'neverthrow';
import { type } from 'superstruct';
import { renderRealmDescription } from '../format/realm-description.js';
import { publicOperation } from '../operation.js';
import { pushNotificationsEnabled } from '../push/enabled.js';

/**
 * GET /server_settings (API.md 4.22): no authentication. The version keys are sent under both
 * the service_* names and the zulip_* names existing clients look for.
 */
export const getServerSettings = publicOperation(type({}), async (ctx, caller) => {
  const { realm } = caller;
  const { featureLevel, version, mergeBase } = ctx.config;
  const password = realm.emailAuthEnabled;
  return ok({
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
    realm_icon: realmIconUrl(realm.uuid),
    realm_description: renderRealmDescription(realm, realm.description, new Date(ctx.clock.now())),
    realm_web_public_access_enabled: realm.webPublicAccessEnabled,
  });
});

/** The generated icon a realm has until one is uploaded. */
function realmIconUrl(uuid: string): string {
  const hash = createHash('md5').update(uuid).digest('hex');
  return `https://secure.gravatar.com/avatar/${hash}?d=identicon`;
}
