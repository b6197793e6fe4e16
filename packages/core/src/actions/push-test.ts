/**
 * Test notifications (the reference's send_test_push_notification_api and
 * send_e2ee_test_push_notification_api): to every registered device of the user's, or to the
 * one named, handed to the notifier after the answer.
 */
import { err, ok } from 'neverthrow';
import type { Ctx } from '../context.js';
import { botsNotAllowed, invalidPushDeviceToken, noActivePushDevice } from '../errors.js';
import { type Actor, userOperation } from '../operation.js';
import { callNotifier, inBackground } from '../push/background.js';
import { e2eeDevicesOf } from '../push/dispatch.js';
import type { E2eePushDevice } from '../push/notifier.js';
import { testPayload } from '../push/payload.js';
import { E2eeTestPushNotificationParams, TestPushNotificationParams } from '../schemas/push.js';
import type { PushDeviceToken } from '../storage/types.js';

/** Hands the test to the notifier's optional `test`; without one nothing is sent, as on a server without push. */
function sendTest(ctx: Ctx, { realm, user }: Actor, devices: PushDeviceToken[], e2eeDevices: E2eePushDevice[]): void {
  const notifier = ctx.pushNotifier;
  const test = notifier?.test?.bind(notifier);
  if (!test) return;
  const payload = testPayload(realm, user.id, Math.floor(ctx.clock.now() / 1000));
  inBackground(ctx, async () => callNotifier(ctx, () => test({ realmId: realm.id, userId: user.id, devices, e2eeDevices, ...payload })));
}

/** POST /mobile_push/test_notification: every registered token of the user's, or the one given. */
export const doSendTestPushNotification = userOperation(TestPushNotificationParams, async (ctx, requester: Actor, params) => {
  const { realm, user } = requester;
  if (user.isBot) return err(botsNotAllowed());
  const all = await ctx.storage.read((tx) => tx.push.tokensOf(realm.id, [user.id]));
  const devices = params.token === undefined ? all : all.filter((d) => d.token === params.token);
  if (params.token !== undefined && devices.length === 0) return err(invalidPushDeviceToken());
  sendTest(ctx, requester, devices, []);
  return ok({});
});

/** POST /mobile_push/e2ee/test_notification: every device with a completed E2EE registration, or the one given. */
export const doSendE2eeTestPushNotification = userOperation(E2eeTestPushNotificationParams, async (ctx, requester: Actor, params) => {
  const { realm, user } = requester;
  if (user.isBot) return err(botsNotAllowed());
  const registered = e2eeDevicesOf(await ctx.storage.read((tx) => tx.push.devicesOf(realm.id, [user.id])), user.id);
  const devices = params.device_id === undefined ? registered : registered.filter((d) => d.deviceId === params.device_id);
  if (devices.length === 0) return err(noActivePushDevice());
  sendTest(ctx, requester, [], devices);
  return ok({});
});
