/** Push registration over HTTP, and a notification reaching a plugged-in notifier from a request. */
import { type MessagePushNotification, pushJobsSettled } from '@teamchat/core';
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
});
