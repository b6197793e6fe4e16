/** GET /server_settings (API.md 4.22, FACTS 3.4). */
import { createHash } from 'node:crypto';
import { createRealm, getServerSettings, updateRealmAsOperator } from '@teamchat/core';
import { describe, expect, it } from 'vitest';
import { makeWorld, must } from '../helpers/core.js';

describe('GET /server_settings', () => {
  it('has every field, with the service_* names and their zulip_* aliases', async () => {
    const w = await makeWorld();
    const icon = `https://secure.gravatar.com/avatar/${createHash('md5').update(w.realm.uuid).digest('hex')}?d=identicon`;
    expect(must(await getServerSettings(w.ctx, w.as(null), {}))).toEqual({
      authentication_methods: {
        password: true,
        dev: false,
        email: true,
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
      service_feature_level: 512,
      service_version: w.ctx.config.version,
      service_merge_base: w.ctx.config.mergeBase,
      zulip_feature_level: 512,
      zulip_version: w.ctx.config.version,
      zulip_merge_base: w.ctx.config.mergeBase,
      push_notifications_enabled: false,
      is_incompatible: false,
      email_auth_enabled: true,
      require_email_format_usernames: true,
      realm_url: 'http://chat.example.com',
      realm_uri: 'http://chat.example.com',
      realm_name: 'Test Org',
      realm_icon: icon,
      realm_description: '',
      realm_web_public_access_enabled: false,
    });
  });

  it('is the same for a logged-in caller, and ignores parameters', async () => {
    const w = await makeWorld();
    const anonymous = must(await getServerSettings(w.ctx, w.as(null), {}));
    expect(must(await getServerSettings(w.ctx, w.as(w.owner), { whatever: '1' }))).toEqual(anonymous);
    expect(must(await getServerSettings(w.ctx, w.as(null)))).toEqual(anonymous);
  });

  it('reflects the realm’s settings', async () => {
    const w = await makeWorld();
    const realm = must(
      await updateRealmAsOperator(w.ctx, w.realm, {
        name: 'Renamed Org',
        description: 'Hello <world> & "friends"\nline two\n\nSecond paragraph',
        webPublicAccessEnabled: true,
        emailAuthEnabled: false,
      }),
    );
    const settings = must(await getServerSettings(w.ctx, { realm, user: null }, {}));
    expect(settings).toMatchObject({
      realm_name: 'Renamed Org',
      // Markdown as in messages: the reference escapes & < > but not quotes.
      realm_description: '<p>Hello &lt;world&gt; &amp; "friends"<br>\nline two</p>\n<p>Second paragraph</p>',
      realm_web_public_access_enabled: true,
      email_auth_enabled: false,
      authentication_methods: expect.objectContaining({ password: false, email: false }),
    });
  });

  it('answers with a realm’s new values as soon as it changes, though answers are kept between calls', async () => {
    const w = await makeWorld();
    const before = must(await getServerSettings(w.ctx, w.as(null), {}));
    expect(must(await getServerSettings(w.ctx, w.as(null), {}))).toEqual(before);
    const realm = must(await updateRealmAsOperator(w.ctx, w.realm, { name: 'Renamed Org', description: 'Now *bold*' }));
    const after = must(await getServerSettings(w.ctx, { realm, user: null }, {}));
    expect(after).toMatchObject({ realm_name: 'Renamed Org', realm_description: '<p>Now <em>bold</em></p>' });
    // The realm as it was read before the change still gets its own answer, not the kept one.
    expect(must(await getServerSettings(w.ctx, { realm: w.realm, user: null }, {}))).toEqual(before);
    // Another context over other data keeps its own answers.
    const other = await makeWorld();
    expect(must(await getServerSettings(other.ctx, other.as(null), {}))).toMatchObject({ realm_name: 'Test Org', realm_description: '' });
  });

  it('describes the realm it is asked for', async () => {
    const w = await makeWorld();
    const { realm } = must(
      await createRealm(w.ctx, {
        name: 'Second Org',
        url: 'https://second.example.org/',
        subdomain: 'second',
        description: 'Welcome',
        owner: { email: 'boss@second.example.org', fullName: 'Second Boss' },
      }),
    );
    expect(must(await getServerSettings(w.ctx, { realm, user: null }, {}))).toMatchObject({
      realm_url: 'https://second.example.org',
      realm_uri: 'https://second.example.org',
      realm_name: 'Second Org',
      realm_description: '<p>Welcome</p>',
    });
  });

  it('takes the version and push settings from the server config', async () => {
    const w = await makeWorld({ config: { featureLevel: 600, version: '99.0', mergeBase: '98.0', pushNotificationsEnabled: true } });
    expect(must(await getServerSettings(w.ctx, w.as(null), {}))).toMatchObject({
      service_feature_level: 600,
      zulip_feature_level: 600,
      service_version: '99.0',
      zulip_version: '99.0',
      service_merge_base: '98.0',
      zulip_merge_base: '98.0',
      push_notifications_enabled: true,
    });
  });
});
