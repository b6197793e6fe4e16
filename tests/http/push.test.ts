/** Push registration over HTTP, and a notification reaching a plugged-in notifier from a request. */
import { type MessagePushNotification, pushJobsSettled } from '@teamchat/core/internal';
import { afterEach, describe, expect, it } from 'vitest';
import { makeWorld } from '../helpers/core.js';
import { call, closeServers, expectError, expectSuccess, form, startServer } from '../helpers/http.js';

afterEach(closeServers);

const APNS = 'ab'.repeat(32);

describe('push registration over HTTP', () => {
  it('adds and removes FCM and APNs tokens; errors are 400 BAD_REQUEST, no login 401', async () => {
    const world = await makeWorld();
    const member = await world.addUser({ email: 'mel@example.com', fullName: 'Mel Member' });
    const server = await startServer(world);
    const fcm = { auth: member, body: form({ token: 'fcm:token' }) };
    expect(expectSuccess(await call(server, 'POST', '/users/me/android_gcm_reg_id', fcm))).toEqual({ result: 'success', msg: '' });
    expectSuccess(await call(server, 'POST', '/users/me/android_gcm_reg_id', fcm));
    expectSuccess(await call(server, 'POST', '/users/me/apns_device_token', { auth: member, body: form({ token: APNS, appid: 'org.zulip.Zulip' }) }));
    expectSuccess(await call(server, 'DELETE', '/users/me/android_gcm_reg_id', fcm));
    expectError(await call(server, 'DELETE', '/users/me/android_gcm_reg_id', fcm), 400, 'BAD_REQUEST', 'Token does not exist');
    expectSuccess(await call(server, 'DELETE', '/users/me/apns_device_token', { auth: member, body: form({ token: APNS }) }));
    expectError(await call(server, 'DELETE', '/users/me/apns_device_token', { auth: member, body: form({ token: APNS }) }), 400, 'BAD_REQUEST', 'Token does not exist');

    expectError(await call(server, 'POST', '/users/me/android_gcm_reg_id', { auth: member, body: form({ token: '' }) }), 400, 'BAD_REQUEST', 'Empty or invalid length token');
    expectError(await call(server, 'POST', '/users/me/android_gcm_reg_id', { auth: member, body: form({ token: 'x'.repeat(5000) }) }), 400, 'BAD_REQUEST', 'Empty or invalid length token');
    expectError(await call(server, 'POST', '/users/me/apns_device_token', { auth: member, body: form({ token: 'not-hex', appid: 'org.zulip.Zulip' }) }), 400, 'BAD_REQUEST', 'Invalid APNS token');
    expectError(await call(server, 'POST', '/users/me/apns_device_token', { auth: member, body: form({ token: APNS, appid: 'bad id' }) }), 400, 'BAD_REQUEST', 'Invalid app ID');
    expectError(await call(server, 'POST', '/users/me/apns_device_token', { auth: member, body: form({ token: APNS }) }), 400, 'REQUEST_VARIABLE_MISSING', "Missing 'appid' argument");
    expectError(await call(server, 'POST', '/users/me/android_gcm_reg_id', { auth: member }), 400, 'REQUEST_VARIABLE_MISSING', "Missing 'token' argument");
    expectError(await call(server, 'POST', '/users/me/android_gcm_reg_id', { body: form({ token: 't' }) }), 401, 'UNAUTHORIZED', /Not logged in/);
    expectSuccess(await call(server, 'POST', '/mobile_push/test_notification', { auth: member }));
    expectError(await call(server, 'POST', '/mobile_push/test_notification', { auth: member, body: form({ token: 'unknown' }) }), 400, 'INVALID_PUSH_DEVICE_TOKEN', 'Device not recognized');
  });

  it('a direct message sent over HTTP reaches the notifier with the registered device, after the answer', async () => {
    const sent: MessagePushNotification[] = [];
    const world = await makeWorld({ pushNotifier: { notify: (n) => void sent.push(n), remove: () => undefined } });
    const member = await world.addUser({ email: 'mel@example.com', fullName: 'Mel Member' });
    const other = await world.addUser({ email: 'otto@example.com', fullName: 'Otto Other' });
    const server = await startServer(world);
    expectSuccess(await call(server, 'POST', '/users/me/android_gcm_reg_id', { auth: other, body: form({ token: 'otto-phone' }) }));
    const { id } = expectSuccess(await call(server, 'POST', '/messages', { auth: member, body: form({ type: 'direct', to: JSON.stringify([other.id]), content: 'ping' }) }));
    await pushJobsSettled(world.ctx);
    expect(sent.map((n) => [n.userId, n.messageId, n.trigger, n.devices.map((d) => d.token), n.data.content])).toEqual([[other.id, id, 'private_message', ['otto-phone'], 'ping']]);
  });

  it('devices: register and remove a device; E2EE registration is PUSH_SERVICE_NOT_CONFIGURED without a registering notifier', async () => {
    const world = await makeWorld();
    const member = await world.addUser({ email: 'mel@example.com', fullName: 'Mel Member' });
    const server = await startServer(world);
    const created = expectSuccess(await call(server, 'POST', '/register_client_device', { auth: member }));
    expect(created).toEqual({ result: 'success', msg: '', device_id: expect.any(Number) });
    const key = Buffer.concat([Buffer.from([0x31]), Buffer.alloc(32, 1)]).toString('base64');
    const registration = { device_id: String(created.device_id), push_key: key, push_key_id: '1', token_kind: 'apns', token_id: Buffer.alloc(8, 1).toString('base64'), bouncer_public_key: 'k', encrypted_push_registration: 'e' };
    expectError(await call(server, 'POST', '/mobile_push/register', { auth: member, body: form(registration) }), 400, 'PUSH_SERVICE_NOT_CONFIGURED', 'Server is not configured to use push notification service.');
    expectSuccess(await call(server, 'POST', '/remove_client_device', { auth: member, body: form({ device_id: String(created.device_id) }) }));
    expectError(await call(server, 'POST', '/remove_client_device', { auth: member, body: form({ device_id: String(created.device_id) }) }), 400, 'BAD_REQUEST', 'Invalid `device_id`');
    expectError(await call(server, 'POST', '/remove_client_device', { auth: member }), 400, 'REQUEST_VARIABLE_MISSING', "Missing 'device_id' argument");
    expectError(await call(server, 'POST', '/register_client_device', {}), 401, 'UNAUTHORIZED', /Not logged in/);
  });

  it('devices: a registering notifier completes an E2EE registration requested over HTTP', async () => {
    const world = await makeWorld({ pushNotifier: { notify: () => undefined, remove: () => undefined, registerDevice: async () => ({ registered: true }) } });
    const member = await world.addUser({ email: 'mel@example.com', fullName: 'Mel Member' });
    const server = await startServer(world);
    const { device_id } = expectSuccess(await call(server, 'POST', '/register_client_device', { auth: member }));
    const key = Buffer.concat([Buffer.from([0x31]), Buffer.alloc(32, 1)]).toString('base64');
    const token = Buffer.alloc(8, 1).toString('base64');
    const registration = { device_id: String(device_id), push_key: key, push_key_id: '1', token_kind: 'apns', token_id: token, bouncer_public_key: 'k', encrypted_push_registration: 'e' };
    expect(expectSuccess(await call(server, 'POST', '/mobile_push/register', { auth: member, body: form(registration) }))).toEqual({ result: 'success', msg: '' });
    expectError(await call(server, 'POST', '/mobile_push/register', { auth: member, body: form({ ...registration, push_key: 'bad' }) }), 400, 'BAD_REQUEST', 'Invalid `push_key`');
    await pushJobsSettled(world.ctx);
    const state = expectSuccess(await call(server, 'POST', '/register', { auth: member, body: form({ fetch_event_types: JSON.stringify(['device']) }) }));
    expect(state.devices).toEqual({ [device_id]: { push_key_id: 1, push_token_id: token, pending_push_token_id: null, push_token_last_updated_timestamp: expect.any(Number), push_registration_error_code: null } });
  });

  it('register and server_settings say push notifications work only when a notifier is plugged in', async () => {
    for (const pushNotifier of [null, { notify: () => undefined, remove: () => undefined }]) {
      const world = await makeWorld({ pushNotifier });
      const server = await startServer(world);
      const state = expectSuccess(await call(server, 'POST', '/register', { auth: world.owner, body: form({ fetch_event_types: JSON.stringify(['realm']) }) }));
      expect(state.realm_push_notifications_enabled).toBe(pushNotifier !== null);
      expect(state.realm_push_notifications_enabled_end_timestamp).toBeNull();
      expect(expectSuccess(await call(server, 'GET', '/server_settings', {})).push_notifications_enabled).toBe(pushNotifier !== null);
    }
  });
});
