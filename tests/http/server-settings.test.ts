import { updateRealmAsOperator } from '@teamchat/core';
import { afterEach, describe, expect, it } from 'vitest';
import { makeWorld, must } from '../helpers/core.js';
import { basicAuth, call, closeServers, expectSuccess, rawRequest, startServer } from '../helpers/http.js';

afterEach(closeServers);

describe('GET /server_settings', () => {
  it('returns every field of API.md 4.22 and the zulip_* aliases, without authentication', async () => {
    const server = await startServer();
    const body = expectSuccess(await call(server, 'GET', '/server_settings'));
    const methods = ['password', 'dev', 'email', 'ldap', 'remoteuser', 'saml', 'openid connect'];
    const hosted = ['codehost_a', 'directory_a', 'codehost_b', 'vendor_a', 'vendor_b', 'chat_vendor_a'];
    expect(Object.keys(body.authentication_methods).sort()).toEqual([...methods, ...hosted].sort());
    for (const value of Object.values(body.authentication_methods)) expect(value).toBeTypeOf('boolean');
    expect(body.authentication_methods).toMatchObject({ password: true, email: true, ldap: false });
    expect(body).toMatchObject({
      external_authentication_methods: [],
      service_feature_level: 512,
      zulip_feature_level: 512,
      push_notifications_enabled: false,
      is_incompatible: false,
      email_auth_enabled: true,
      require_email_format_usernames: true,
      realm_url: 'http://chat.example.com',
      realm_uri: 'http://chat.example.com',
      realm_name: 'Test Org',
      realm_web_public_access_enabled: false,
    });
    expect(body.service_version).toBeTypeOf('string');
    expect(body.service_version).not.toBe('');
    expect(body.zulip_version).toBe(body.service_version);
    expect(body.service_merge_base).toBeTypeOf('string');
    expect(body.zulip_merge_base).toBe(body.service_merge_base);
    expect(body.realm_icon).toBeTypeOf('string');
    expect(body.realm_description).toBeTypeOf('string');
  });

  it('reflects the realm settings (description is HTML, web-public access, password auth)', async () => {
    const world = await makeWorld();
    must(
      await updateRealmAsOperator(world.ctx, world.realm, {
        description: 'Hello *world*',
        webPublicAccessEnabled: true,
        emailAuthEnabled: false,
      }),
    );
    const server = await startServer(world);
    const body = expectSuccess(await call(server, 'GET', '/server_settings'));
    expect(body.realm_description).toMatch(/^<p>.*Hello.*<\/p>$/s);
    expect(body.realm_web_public_access_enabled).toBe(true);
    expect(body.email_auth_enabled).toBe(false);
    expect(body.authentication_methods.password).toBe(false);
  });

  it('ignores Basic credentials, valid or not', async () => {
    const server = await startServer();
    const { owner } = server.world;
    const headers = [
      basicAuth(owner.deliveryEmail, owner.apiKey),
      basicAuth(owner.deliveryEmail, 'x'.repeat(32)),
      basicAuth('nobody@example.com', 'short'),
      'Basic !!!not-base64!!!',
      'Bearer some-token',
      'Basic',
    ];
    for (const auth of headers) {
      const body = expectSuccess(await call(server, 'GET', '/server_settings', { auth }));
      expect(body.service_feature_level).toBe(512);
    }
  });

  it('serves HEAD like GET, without a body', async () => {
    const server = await startServer();
    const response = await call(server, 'HEAD', '/server_settings');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(response.text).toBe('');
  });

  it('lists unknown parameters in ignored_parameters_unsupported', async () => {
    const server = await startServer();
    const body = expectSuccess(await call(server, 'GET', '/server_settings', { query: { zeta: '1', alpha: '2', client: 'x' } }));
    expect(body.ignored_parameters_unsupported).toEqual(['alpha', 'zeta']);
  });

  it('answers for the realm named by the Host header', async () => {
    const server = await startServer();
    const body = expectSuccess(await rawRequest(server, { path: '/api/v1/server_settings', headers: { host: 'chat.example.com' } }));
    expect(body.realm_url).toBe('http://chat.example.com');
  });
});
