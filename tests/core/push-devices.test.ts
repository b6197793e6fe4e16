/** POST /register_client_device, /remove_client_device and /mobile_push/register (FL 468): devices, E2EE registration, events, register's `devices`. */
import {
  doRegisterClientDevice,
  doRegisterPushDevice,
  doAddFcmToken,
  doRegenerateApiKey,
  doRemoveClientDevice,
  doSendE2eeTestPushNotification,
  type PushDeviceRegistration,
  type PushRegistrationOutcome,
  pushJobsSettled,
  type User,
} from '@teamchat/core/internal';
import { describe, expect, it } from 'vitest';
import { must } from '../helpers/core.js';
import { type ChannelWorld, channelWorld, queued, register } from './channel-helpers.js';
import { expectBadRequest, expectError, T0 } from './fixtures.js';
import { recordingNotifier, sendDirect } from './push-helpers.js';

const KEY = Buffer.concat([Buffer.from([0x31]), Buffer.alloc(32, 7)]).toString('base64');
const KEY2 = Buffer.concat([Buffer.from([0x31]), Buffer.alloc(32, 9)]).toString('base64');
const TOKEN = Buffer.from([0, 0, 0, 0, 0, 0, 1, 2]).toString('base64');
const TOKEN2 = Buffer.from([0xff, 0, 0, 0, 0, 0, 0, 3]).toString('base64');
const NOW = Math.floor(T0 / 1000);

/** A notifier whose registerDevice answers what `answer` says (or waits until released). */
function registeringWorld(answer: (r: PushDeviceRegistration) => Promise<PushRegistrationOutcome>) {
  const notifier = { ...recordingNotifier(), registrations: [] as PushDeviceRegistration[] };
  const registerDevice = (r: PushDeviceRegistration) => {
    notifier.registrations.push(r);
    return answer(r);
  };
  return { notifier: Object.assign(notifier, { registerDevice }) };
}

const newDevice = async (m: ChannelWorld, user: User) => (must(await doRegisterClientDevice(m.w.ctx, m.w.as(user), {}))).device_id;
const deviceEvents = (m: ChannelWorld) => m.drain().filter((p) => p.event.type === 'device').map((p): Record<string, unknown> => ({ to: p.userIds, ...p.event }));
const full = (deviceId: number, extra: Record<string, unknown> = {}) => ({
  device_id: String(deviceId),
  push_key: KEY,
  push_key_id: '5',
  token_kind: 'fcm',
  token_id: TOKEN,
  bouncer_public_key: 'bouncer-key-1',
  encrypted_push_registration: 'sealed-registration',
  ...extra,
});
const devicesOf = async (m: ChannelWorld, user: User) => (await register(m.w, user, { fetch_event_types: JSON.stringify(['device']) })).devices;

describe('client devices', () => {
  it('registers and removes devices, each with a device event to the owner only, and shows them in register', async () => {
    const m = await channelWorld();
    const { w, member, other } = m;
    m.drain();
    const first = await newDevice(m, member);
    const second = await newDevice(m, member);
    expect(second).toBeGreaterThan(first);
    expect(deviceEvents(m)).toEqual([
      { to: [member.id], type: 'device', op: 'add', device_id: first },
      { to: [member.id], type: 'device', op: 'add', device_id: second },
    ]);
    const empty = { push_key_id: null, push_token_id: null, pending_push_token_id: null, push_token_last_updated_timestamp: null, push_registration_error_code: null };
    expect(await devicesOf(m, member)).toEqual({ [first]: empty, [second]: empty });
    expect(await devicesOf(m, other)).toEqual({});

    expectBadRequest(await doRemoveClientDevice(w.ctx, w.as(other), { device_id: first }), 'Invalid `device_id`');
    must(await doRemoveClientDevice(w.ctx, w.as(member), { device_id: first }));
    expectBadRequest(await doRemoveClientDevice(w.ctx, w.as(member), { device_id: first }), 'Invalid `device_id`');
    expectBadRequest(await doRemoveClientDevice.fromTransport(w.ctx, w.as(member), { device_id: 'x' }), 'device_id is not valid JSON');
    expect(deviceEvents(m)).toEqual([{ to: [member.id], type: 'device', op: 'remove', device_id: first }]);
    // A removed device's ID is never handed out again.
    expect(await newDevice(m, member)).toBeGreaterThan(second);
  });

  it('E2EE registration needs a notifier that registers devices: PUSH_SERVICE_NOT_CONFIGURED otherwise', async () => {
    const m = await channelWorld();
    const device = await newDevice(m, m.member);
    expectError(await doRegisterPushDevice.fromTransport(m.w.ctx, m.w.as(m.member), full(device)), 'PUSH_SERVICE_NOT_CONFIGURED', 'Server is not configured to use push notification service.');
    const plain = await channelWorld({ pushNotifier: recordingNotifier() });
    const other = await newDevice(plain, plain.member);
    expectError(await doRegisterPushDevice.fromTransport(plain.w.ctx, plain.w.as(plain.member), full(other)), 'PUSH_SERVICE_NOT_CONFIGURED', 'Server is not configured to use push notification service.');
  });

  it('registers through the notifier: pending, then registered; repeats change nothing; key and token rotate', async () => {
    const { notifier } = registeringWorld(async () => ({ registered: true }));
    const m = await channelWorld({ pushNotifier: notifier });
    const { w, member } = m;
    const device = await newDevice(m, member);
    m.drain();
    must(await doRegisterPushDevice.fromTransport(w.ctx, w.as(member), full(device)));
    expect(deviceEvents(m)).toEqual([
      { to: [member.id], type: 'device', op: 'update', device_id: device, push_key_id: 5, pending_push_token_id: TOKEN, push_token_last_updated_timestamp: NOW, push_registration_error_code: null },
    ]);
    await pushJobsSettled(w.ctx);
    expect(notifier.registrations).toEqual([
      { realmId: w.realm.id, userId: member.id, deviceId: device, tokenKind: 'fcm', tokenId: TOKEN, bouncerPublicKey: 'bouncer-key-1', encryptedPushRegistration: 'sealed-registration' },
    ]);
    expect(deviceEvents(m)).toEqual([{ to: [member.id], type: 'device', op: 'update', device_id: device, push_token_id: TOKEN, pending_push_token_id: null }]);
    expect((await devicesOf(m, member))[device]).toEqual({ push_key_id: 5, push_token_id: TOKEN, pending_push_token_id: null, push_token_last_updated_timestamp: NOW, push_registration_error_code: null });

    // The same registration again is a no-op.
    must(await doRegisterPushDevice.fromTransport(w.ctx, w.as(member), full(device)));
    await pushJobsSettled(w.ctx);
    expect(deviceEvents(m)).toEqual([]);
    expect(notifier.registrations).toHaveLength(1);

    // Key rotation alone.
    must(await doRegisterPushDevice(w.ctx, w.as(member), { device_id: device, push_key: KEY2, push_key_id: 6 }));
    must(await doRegisterPushDevice(w.ctx, w.as(member), { device_id: device, push_key: KEY2, push_key_id: 6 }));
    expect(deviceEvents(m)).toEqual([{ to: [member.id], type: 'device', op: 'update', device_id: device, push_key_id: 6 }]);

    // Token rotation alone: the same token changes nothing; a new one registers again.
    const tokenOnly = (token: string) => ({ device_id: String(device), token_kind: 'fcm', token_id: token, bouncer_public_key: 'k', encrypted_push_registration: 'e' });
    must(await doRegisterPushDevice.fromTransport(w.ctx, w.as(member), tokenOnly(TOKEN)));
    expect(deviceEvents(m)).toEqual([]);
    must(await doRegisterPushDevice.fromTransport(w.ctx, w.as(member), tokenOnly(TOKEN2)));
    await pushJobsSettled(w.ctx);
    expect(deviceEvents(m).map((e) => [e.pending_push_token_id, e.push_token_id])).toEqual([[TOKEN2, undefined], [null, TOKEN2]]);

    // Notifications name the registered E2EE device.
    await sendDirect(m, m.other, [member], 'hello');
    await pushJobsSettled(w.ctx);
    expect(notifier.sent.map((n) => n.e2eeDevices)).toEqual([[{ deviceId: device, tokenKind: 'fcm', tokenId: TOKEN2, pushKey: KEY2, pushKeyId: 6 }]]);
  });

  it('a registration under way blocks another; a failure is recorded and allows a retry; a throw is REQUEST_EXPIRED', async () => {
    let release: (outcome: PushRegistrationOutcome) => void = () => undefined;
    let answer: () => Promise<PushRegistrationOutcome> = () => new Promise((resolve) => (release = resolve));
    const { notifier } = registeringWorld(() => answer());
    const m = await channelWorld({ pushNotifier: notifier });
    const { w, member } = m;
    const device = await newDevice(m, member);
    must(await doRegisterPushDevice.fromTransport(w.ctx, w.as(member), full(device)));
    await new Promise((resolve) => setImmediate(resolve));
    expectBadRequest(await doRegisterPushDevice.fromTransport(w.ctx, w.as(member), full(device, { token_id: TOKEN2 })), 'A registration for the device already in progress.');
    m.drain();
    release({ registered: false, errorCode: 'INVALID_BOUNCER_PUBLIC_KEY' });
    await pushJobsSettled(w.ctx);
    expect(deviceEvents(m)).toEqual([{ to: [member.id], type: 'device', op: 'update', device_id: device, push_registration_error_code: 'INVALID_BOUNCER_PUBLIC_KEY' }]);
    expect((await devicesOf(m, member))[device]).toMatchObject({ pending_push_token_id: TOKEN, push_token_id: null, push_registration_error_code: 'INVALID_BOUNCER_PUBLIC_KEY' });

    answer = async () => {
      throw new Error('push service down');
    };
    must(await doRegisterPushDevice.fromTransport(w.ctx, w.as(member), full(device, { token_id: TOKEN2 })));
    await pushJobsSettled(w.ctx);
    expect((await devicesOf(m, member))[device]).toMatchObject({ pending_push_token_id: TOKEN2, push_registration_error_code: 'REQUEST_EXPIRED' });
  });

  it('refuses incomplete field groups, malformed keys and token IDs, out-of-range IDs, oversized fields, bots and others\' devices', async () => {
    const { notifier } = registeringWorld(async () => ({ registered: true }));
    const m = await channelWorld({ pushNotifier: notifier });
    const { w, member, other, bot } = m;
    const device = await newDevice(m, member);
    const send = (input: Record<string, unknown>, user = member) => doRegisterPushDevice.fromTransport(w.ctx, w.as(user), input);
    const missing = 'Missing parameters: must provide either all push key fields, all token fields, or both.';
    expectBadRequest(await send({ device_id: String(device) }), missing);
    expectBadRequest(await send({ device_id: String(device), push_key: KEY }), missing);
    expectBadRequest(await send({ device_id: String(device), token_kind: 'fcm', token_id: TOKEN, bouncer_public_key: 'k' }), missing);
    expectBadRequest(await send({ device_id: String(device), push_key: KEY, push_key_id: '1' }), 'No push registration exists to rotate key for.');
    expectBadRequest(await send({ device_id: String(device), token_kind: 'fcm', token_id: TOKEN, bouncer_public_key: 'k', encrypted_push_registration: 'e' }), 'No push registration exists to rotate token for.');
    for (const key of ['not base64!', Buffer.alloc(33, 0x31).toString('base64').slice(0, -4), Buffer.concat([Buffer.from([0x32]), Buffer.alloc(32)]).toString('base64')]) {
      expectBadRequest(await send(full(device, { push_key: key })), 'Invalid `push_key`');
    }
    expectBadRequest(await send(full(device, { token_id: '***' })), '`token_id` is not Base64 encoded');
    expectBadRequest(await send(full(device, { token_id: Buffer.alloc(9).toString('base64') })), 'Invalid `token_id`');
    expectBadRequest(await send(full(device, { push_key_id: String(2 ** 32) })), 'push_key_id is too large');
    expectBadRequest(await send(full(device, { push_key_id: '-1' })), 'push_key_id is too small');
    expectBadRequest(await send(full(device, { token_kind: 'gcm' })), 'Invalid token_kind');
    expectBadRequest(await send(full(device, { encrypted_push_registration: 'x'.repeat(10001) })), 'encrypted_push_registration is too long (limit: 10000 characters)');
    expectBadRequest(await send(full(device), other), 'Invalid `device_id`');
    expectBadRequest(await send(full(device + 100)), 'Invalid `device_id`');
    expectBadRequest(await send(full(device), bot), 'This endpoint does not accept bot requests.');
    const absent = await send({ push_key: KEY, push_key_id: '1' });
    expect(absent.isErr() && absent.error.code).toBe('REQUEST_VARIABLE_MISSING');
    await pushJobsSettled(w.ctx);
    expect(notifier.registrations).toEqual([]);
    expect((await devicesOf(m, member))[device]).toMatchObject({ push_key_id: null, pending_push_token_id: null });
  });

  it('device events applied to register\'s devices give what a fresh register gives (verify_action)', async () => {
    const { notifier } = registeringWorld(async () => ({ registered: false, errorCode: 'INVALID_ENCRYPTED_PUSH_REGISTRATION' }));
    const m = await channelWorld({ pushNotifier: notifier });
    const { w, member } = m;
    const kept = await newDevice(m, member);
    const before = await register(w, member, { fetch_event_types: JSON.stringify(['device']) });
    const gone = await newDevice(m, member);
    must(await doRegisterPushDevice.fromTransport(w.ctx, w.as(member), full(kept)));
    await pushJobsSettled(w.ctx);
    must(await doRemoveClientDevice(w.ctx, w.as(member), { device_id: gone }));
    const devices: Record<string, Record<string, unknown>> = structuredClone(before.devices);
    for (const event of await queued(w, member, before.queue_id)) {
      const { type, op, device_id: id, id: _eventId, ...fields } = event;
      if (type !== 'device') continue;
      const empty = { push_key_id: null, push_token_id: null, pending_push_token_id: null, push_token_last_updated_timestamp: null, push_registration_error_code: null };
      if (op === 'add') devices[String(id)] = empty;
      else if (op === 'remove') delete devices[String(id)];
      else Object.assign(devices[String(id)]!, fields);
    }
    expect(devices).toEqual(await devicesOf(m, member));
    expect(devices[kept]).toMatchObject({ push_registration_error_code: 'INVALID_ENCRYPTED_PUSH_REGISTRATION' });
  });

  it('E2EE test notifications go to registered devices only: NO_ACTIVE_PUSH_DEVICE otherwise', async () => {
    const { notifier } = registeringWorld(async () => ({ registered: true }));
    const m = await channelWorld({ pushNotifier: notifier });
    const { w, member, bot } = m;
    const device = await newDevice(m, member);
    const noDevice = ['NO_ACTIVE_PUSH_DEVICE', 'No active registered push device'] as const;
    expectError(await doSendE2eeTestPushNotification(w.ctx, w.as(member), {}), ...noDevice);
    must(await doRegisterPushDevice.fromTransport(w.ctx, w.as(member), full(device)));
    // Pending is not registered yet.
    expectError(await doSendE2eeTestPushNotification(w.ctx, w.as(member), {}), ...noDevice);
    await pushJobsSettled(w.ctx);
    expect(must(await doSendE2eeTestPushNotification(w.ctx, w.as(member), { device_id: device }))).toEqual({});
    expectError(await doSendE2eeTestPushNotification(w.ctx, w.as(member), { device_id: device + 1 }), ...noDevice);
    expectError(await doSendE2eeTestPushNotification(w.ctx, w.as(m.other), { device_id: device }), ...noDevice);
    expectBadRequest(await doSendE2eeTestPushNotification(w.ctx, w.as(bot), {}), 'This endpoint does not accept bot requests.');
    await pushJobsSettled(w.ctx);
    expect(notifier.tests).toEqual([
      {
        realmId: w.realm.id,
        userId: member.id,
        devices: [],
        e2eeDevices: [{ deviceId: device, tokenKind: 'fcm', tokenId: TOKEN, pushKey: KEY, pushKeyId: 5 }],
        data: expect.objectContaining({ event: 'test' }),
        e2eeData: { realm_name: 'Test Org', realm_url: 'http://chat.example.com', time: NOW, type: 'test', user_id: member.id },
        alert: { title: 'Test notification', subtitle: '', body: 'This is a test notification from Test Org (http://chat.example.com).' },
      },
    ]);
  });

  it('a new API key removes the user\'s push registrations, legacy and E2EE, with device events (FL 492)', async () => {
    const { notifier } = registeringWorld(async () => ({ registered: true }));
    const m = await channelWorld({ pushNotifier: notifier });
    const { w, member, other } = m;
    const device = await newDevice(m, member);
    const bare = await newDevice(m, member);
    must(await doRegisterPushDevice.fromTransport(w.ctx, w.as(member), full(device)));
    await pushJobsSettled(w.ctx);
    must(await doAddFcmToken(w.ctx, w.as(member), { token: 'phone' }));
    must(await doAddFcmToken(w.ctx, w.as(other), { token: 'others-phone' }));
    m.drain();
    must(await doRegenerateApiKey(w.ctx, w.as(member), {}));
    const cleared = { push_key_id: null, push_token_id: null, pending_push_token_id: null, push_token_last_updated_timestamp: null, push_registration_error_code: null };
    expect(deviceEvents(m)).toEqual([{ to: [member.id], type: 'device', op: 'update', device_id: device, ...cleared }]);
    expect(await devicesOf(m, member)).toEqual({ [device]: cleared, [bare]: cleared });
    expect(await w.ctx.storage.read((tx) => tx.push.tokensOf(w.realm.id, [member.id, other.id]))).toEqual([expect.objectContaining({ userId: other.id, token: 'others-phone' })]);
    expectError(await doSendE2eeTestPushNotification(w.ctx, w.as(member), {}), 'NO_ACTIVE_PUSH_DEVICE', 'No active registered push device');
  });
});
