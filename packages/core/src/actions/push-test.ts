/**
 * POST /mobile_push/test_notification (the reference's send_test_push_notification_api): a
 * test notification to every registered device of the user's, or to the one whose token is
 * given, handed to the notifier after the answer.
 */
import { err, ok } from 'neverthrow';
import { botsNotAllowed, invalidPushDeviceToken } from '../errors.js';
import { type Actor, userOperation } from '../operation.js';
import { callNotifier, inBackground } from '../push/background.js';
import { testPayload } from '../push/payload.js';
import { TestPushNotificationParams } from '../schemas/push.js';

export const doSendTestPushNotification = userOperation(TestPushNotificationParams, async (ctx, requester: Actor, params) => {
  const { realm, user } = requester;
  if (user.isBot) return err(botsNotAllowed());
  const all = await ctx.storage.read((tx) => tx.push.tokensOf(realm.id, [user.id]));
  const devices = params.token === undefined ? all : all.filter((d) => d.token === params.token);
  if (params.token !== undefined && devices.length === 0) return err(invalidPushDeviceToken());
  const notifier = ctx.pushNotifier;
  const test = notifier?.test?.bind(notifier);
  if (test) {
    const payload = testPayload(realm, user.id, Math.floor(ctx.clock.now() / 1000));
    inBackground(ctx, async () => callNotifier(() => test({ realmId: realm.id, userId: user.id, devices, ...payload })));
  }
  return ok({});
});
