/**
 * Registering and removing mobile push device tokens (the reference's
 * add_push_device_token / remove_push_device_token). Registration is idempotent; removing a
 * token the user does not have is an error, as in a reference server without the bouncer.
 * Bots cannot register devices (the reference's human_users_only). These endpoints send no event.
 */
import { err, ok } from 'neverthrow';
import type { Ctx } from '../context.js';
import { type ApiError, badRequest, botsNotAllowed } from '../errors.js';
import { type Actor, userOperation } from '../operation.js';
import { checkAppId, checkPushToken } from '../push/tokens.js';
import { AddApnsTokenParams, PushTokenParams } from '../schemas/push.js';
import type { PushTokenKind } from '../storage/types.js';
import { transactionAs } from '../transaction.js';

/** The reference's answer to removing an unknown token. */
const tokenDoesNotExist = () => badRequest('Token does not exist');

async function addToken(ctx: Ctx, requester: Actor, kind: PushTokenKind, token: string, iosAppId: string | null) {
  if (requester.user.isBot) return err<object, ApiError>(botsNotAllowed());
  const checked = checkPushToken(token, kind);
  if (checked.isErr()) return err<object, ApiError>(checked.error);
  if (iosAppId !== null) {
    const appId = checkAppId(iosAppId);
    if (appId.isErr()) return err<object, ApiError>(appId.error);
  }
  const dateCreated = Math.floor(ctx.clock.now() / 1000);
  return transactionAs(ctx, requester, async (tx, { user }) => {
    await tx.push.addToken(user.realmId, { userId: user.id, kind, token, iosAppId, dateCreated });
    return ok({});
  });
}

async function removeToken(ctx: Ctx, requester: Actor, kind: PushTokenKind, token: string) {
  if (requester.user.isBot) return err<object, ApiError>(botsNotAllowed());
  const checked = checkPushToken(token, kind);
  if (checked.isErr()) return err<object, ApiError>(checked.error);
  return transactionAs(ctx, requester, async (tx, { user }) => {
    if (!(await tx.push.removeToken(user.realmId, user.id, kind, token))) return err(tokenDoesNotExist());
    return ok({});
  });
}

/** POST /users/me/android_gcm_reg_id: registers an FCM token. */
export const doAddFcmToken = userOperation(PushTokenParams, (ctx, requester: Actor, params) => addToken(ctx, requester, 'fcm', params.token, null));

/** DELETE /users/me/android_gcm_reg_id. */
export const doRemoveFcmToken = userOperation(PushTokenParams, (ctx, requester: Actor, params) => removeToken(ctx, requester, 'fcm', params.token));

/** POST /users/me/apns_device_token: registers an APNs token with its app's bundle ID (`appid`, required since FL 223). */
export const doAddApnsToken = userOperation(AddApnsTokenParams, (ctx, requester: Actor, params) =>
  addToken(ctx, requester, 'apns', params.token, params.appid),
);

/** DELETE /users/me/apns_device_token. */
export const doRemoveApnsToken = userOperation(PushTokenParams, (ctx, requester: Actor, params) => removeToken(ctx, requester, 'apns', params.token));
