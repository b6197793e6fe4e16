/** POST/DELETE /users/me/android_gcm_reg_id and /users/me/apns_device_token: validation, idempotence, isolation. */
import { doAddApnsToken, doAddFcmToken, doRemoveApnsToken, doRemoveFcmToken, doSendTestPushNotification, type PushTestNotification, pushJobsSettled, type User } from '@teamchat/core/internal';
import { describe, expect, it } from 'vitest';
import { must } from '../helpers/core.js';
import { type ChannelWorld, channelWorld } from './channel-helpers.js';
import { expectBadRequest, expectError, secondRealm, T0 } from './fixtures.js';

const APNS = 'c0ffee00'.repeat(8);
const tokensOf = (m: ChannelWorld, user: User) => m.w.ctx.storage.read((tx) => tx.push.tokensOf(user.realmId, [user.id]));

describe('push device tokens', () => {
  it('registers FCM and APNs tokens idempotently, removes them, and sends no event', async () => {
    const m = await channelWorld();
    const { w, member } = m;
    m.drain();
    expect(must(await doAddFcmToken(w.ctx, w.as(member), { token: 'fcm-token:abc' }))).toEqual({});
    must(await doAddFcmToken(w.ctx, w.as(member), { token: 'fcm-token:abc' }));
    must(await doAddApnsToken(w.ctx, w.as(member), { token: APNS, appid: 'org.zulip.Zulip' }));
    // The same text as the other kind is another device.
    must(await doAddApnsToken(w.ctx, w.as(member), { token: 'abcd', appid: 'com.example.app-beta' }));
    must(await doAddFcmToken(w.ctx, w.as(member), { token: 'abcd' }));
    const date = Math.floor(T0 / 1000);
    expect(await tokensOf(m, member)).toEqual([
      { userId: member.id, kind: 'fcm', token: 'fcm-token:abc', iosAppId: null, dateCreated: date },
      { userId: member.id, kind: 'apns', token: APNS, iosAppId: 'org.zulip.Zulip', dateCreated: date },
      { userId: member.id, kind: 'apns', token: 'abcd', iosAppId: 'com.example.app-beta', dateCreated: date },
      { userId: member.id, kind: 'fcm', token: 'abcd', iosAppId: null, dateCreated: date },
    ]);
    must(await doRemoveApnsToken(w.ctx, w.as(member), { token: 'abcd' }));
    must(await doRemoveFcmToken(w.ctx, w.as(member), { token: 'fcm-token:abc' }));
    expect((await tokensOf(m, member)).map((t) => `${t.kind}:${t.token}`)).toEqual([`apns:${APNS}`, 'fcm:abcd']);
    expect(m.drain()).toEqual([]);
  });

  it('removing a token the user does not have is "Token does not exist", whoever else has it', async () => {
    const m = await channelWorld();
    const { w, member, other } = m;
    must(await doAddFcmToken(w.ctx, w.as(member), { token: 'shared' }));
    expectBadRequest(await doRemoveFcmToken(w.ctx, w.as(other), { token: 'shared' }), 'Token does not exist');
    expectBadRequest(await doRemoveApnsToken(w.ctx, w.as(member), { token: 'ab' }), 'Token does not exist');
    must(await doRemoveFcmToken(w.ctx, w.as(member), { token: 'shared' }));
    expectBadRequest(await doRemoveFcmToken(w.ctx, w.as(member), { token: 'shared' }), 'Token does not exist');
    // Each user's token is their own: another realm's owner registering the same token changes nothing here.
    const second = await secondRealm(w.ctx);
    must(await doAddFcmToken(w.ctx, { realm: second.realm, user: second.owner }, { token: 'shared' }));
    expect(await tokensOf(m, member)).toEqual([]);
    expect(await tokensOf(m, second.owner)).toHaveLength(1);
  });

  it('refuses empty, overlong and non-hex APNs tokens, bad app IDs, missing parameters and bots', async () => {
    const m = await channelWorld();
    const { w, member, bot } = m;
    for (const op of [doAddFcmToken, doRemoveFcmToken, doRemoveApnsToken]) {
      expectBadRequest(await op(w.ctx, w.as(member), { token: '' }), 'Empty or invalid length token');
      expectBadRequest(await op(w.ctx, w.as(member), { token: 'a'.repeat(4097) }), 'Empty or invalid length token');
    }
    must(await doAddFcmToken(w.ctx, w.as(member), { token: 'a'.repeat(4096) }));
    expectBadRequest(await doAddApnsToken(w.ctx, w.as(member), { token: '', appid: 'org.zulip.Zulip' }), 'Empty or invalid length token');
    for (const token of ['xyz0', 'abc', 'c0ffee==', 'ab cd']) {
      expectBadRequest(await doAddApnsToken(w.ctx, w.as(member), { token, appid: 'org.zulip.Zulip' }), 'Invalid APNS token');
    }
    expectBadRequest(await doRemoveApnsToken(w.ctx, w.as(member), { token: 'xyz0' }), 'Invalid APNS token');
    for (const appid of ['', 'org zulip', 'org/zulip', 'é']) {
      expectBadRequest(await doAddApnsToken(w.ctx, w.as(member), { token: APNS, appid }), 'Invalid app ID');
    }
    const missing = await doAddApnsToken.fromTransport(w.ctx, w.as(member), { token: APNS });
    expect(missing.isErr() && missing.error.code).toBe('REQUEST_VARIABLE_MISSING');
    expectBadRequest(await doAddFcmToken.fromTransport(w.ctx, w.as(member), { token: 5 }), 'token is not a string');
    expectBadRequest(await doAddFcmToken(w.ctx, w.as(bot), { token: 'bot-token' }), 'This endpoint does not accept bot requests.');
    expectBadRequest(await doRemoveFcmToken(w.ctx, w.as(bot), { token: 'bot-token' }), 'This endpoint does not accept bot requests.');
    expect((await tokensOf(m, member)).map((t) => t.token.length)).toEqual([4096]);
    expect(await tokensOf(m, bot)).toEqual([]);
  });

  it('test notifications go to every device, or the one named; an unknown token is INVALID_PUSH_DEVICE_TOKEN', async () => {
    const tests: PushTestNotification[] = [];
    const m = await channelWorld({ pushNotifier: { notify: () => undefined, remove: () => undefined, test: (t) => void tests.push(t) } });
    const { w, member, other, bot } = m;
    must(await doAddFcmToken(w.ctx, w.as(member), { token: 'phone' }));
    must(await doAddApnsToken(w.ctx, w.as(member), { token: APNS, appid: 'org.zulip.Zulip' }));
    must(await doAddFcmToken(w.ctx, w.as(other), { token: 'others-phone' }));
    expect(must(await doSendTestPushNotification(w.ctx, w.as(member), {}))).toEqual({});
    must(await doSendTestPushNotification(w.ctx, w.as(member), { token: 'phone' }));
    await pushJobsSettled(w.ctx);
    expect(tests.map((t) => [t.userId, t.devices.map((d) => d.token)])).toEqual([[member.id, ['phone', APNS]], [member.id, ['phone']]]);
    expect(tests[0]!.data).toEqual({
      server: 'chat.example.com', realm_id: String(w.realm.id), realm_name: 'Test Org', realm_uri: 'http://chat.example.com', realm_url: 'http://chat.example.com',
      user_id: String(member.id), event: 'test', time: String(Math.floor(T0 / 1000)),
    });
    expect(tests[0]!.alert).toEqual({ title: 'Test notification', subtitle: '', body: 'This is a test notification from Test Org (http://chat.example.com).' });
    expectError(await doSendTestPushNotification(w.ctx, w.as(member), { token: 'others-phone' }), 'INVALID_PUSH_DEVICE_TOKEN', 'Device not recognized');
    expectBadRequest(await doSendTestPushNotification(w.ctx, w.as(bot), {}), 'This endpoint does not accept bot requests.');
    // Without a notifier that sends tests, the request succeeds and nothing is sent, as a server without push.
    const plain = await channelWorld();
    expect(must(await doSendTestPushNotification(plain.w.ctx, plain.w.as(plain.member), {}))).toEqual({});
  });
});
