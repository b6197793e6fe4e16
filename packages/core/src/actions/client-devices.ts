/**
 * Logged-in devices and their E2EE push registration (FL 468; the reference's
 * actions/devices.py, actions/push_notifications.py and views/push_notifications.py
 * register_push_device). Each change goes to the owner's queues as a `device` event. Completing
 * a token registration is the notifier's job (push/registration.ts), after the answer.
 */
import { err, ok } from 'neverthrow';
import type { Ctx } from '../context.js';
import { type ApiError, badRequest, botsNotAllowed, pushServiceNotConfigured } from '../errors.js';
import { publishOnCommit } from '../events/publish.js';
import { type Actor, userOperation } from '../operation.js';
import { checkPushKey, checkTokenId } from '../push/device-fields.js';
import { scheduleDeviceRegistration } from '../push/registration.js';
import { RegisterClientDeviceParams, RegisterPushDeviceParams, RemoveClientDeviceParams } from '../schemas/push.js';
import type { ClientDevice, Tx, User } from '../storage/types.js';
import { transactionAs } from '../transaction.js';
import type { DistributiveOmit } from '../events/types.js';
import type { DeviceEvent } from '../events/union/personal.js';

const invalidDeviceId = () => badRequest('Invalid `device_id`');

/** A `device` event to the owner's queues, after commit. */
export function announceDevice(ctx: Ctx, tx: Tx, user: Pick<User, 'realmId' | 'id'>, body: DistributiveOmit<DeviceEvent, 'type'>): void {
  publishOnCommit(ctx, tx, { realmId: user.realmId, userIds: [user.id], event: { type: 'device', ...body } });
}

/** POST /register_client_device: a new device of the user's; answers its `device_id`. */
export const doRegisterClientDevice = userOperation(RegisterClientDeviceParams, async (ctx, requester: Actor) =>
  transactionAs(ctx, requester, async (tx, { user }) => {
    const device = await tx.push.insertDevice(user.realmId, user.id);
    if (!device) return err(invalidDeviceId());
    announceDevice(ctx, tx, user, { op: 'add', device_id: device.id });
    return ok({ device_id: device.id });
  }),
);

/** POST /remove_client_device: forgets the device and its push registration. */
export const doRemoveClientDevice = userOperation(RemoveClientDeviceParams, async (ctx, requester: Actor, params) =>
  transactionAs(ctx, requester, async (tx, { user }) => {
    if (!(await tx.push.deleteDevice(user.realmId, user.id, params.device_id))) return err(invalidDeviceId());
    announceDevice(ctx, tx, user, { op: 'remove', device_id: params.device_id });
    return ok({});
  }),
);

type Fields = { pushKey?: string; pushKeyId?: number; tokenKind?: 'fcm' | 'apns'; tokenId?: string; bouncerPublicKey?: string; encryptedPushRegistration?: string };

/**
 * POST /mobile_push/register: the push key fields alone rotate the key; the token fields alone
 * rotate the token; both register afresh. A repeated request changes nothing; a new token
 * while one is being registered is refused, as in the reference.
 */
export const doRegisterPushDevice = userOperation(RegisterPushDeviceParams, async (ctx, requester: Actor, params) => {
  if (requester.user.isBot) return err<object, ApiError>(botsNotAllowed());
  if (!ctx.pushNotifier?.registerDevice) return err<object, ApiError>(pushServiceNotConfigured());
  const keyFields = params.push_key !== undefined && params.push_key_id !== undefined;
  const tokenFields = [params.bouncer_public_key, params.encrypted_push_registration, params.token_id, params.token_kind].every((v) => v !== undefined);
  if (!keyFields && !tokenFields) {
    return err<object, ApiError>(badRequest('Missing parameters: must provide either all push key fields, all token fields, or both.'));
  }
  const fields: Fields = {};
  if (keyFields) {
    const key = checkPushKey(params.push_key!);
    if (key.isErr()) return err<object, ApiError>(key.error);
    Object.assign(fields, { pushKey: key.value, pushKeyId: params.push_key_id });
  }
  if (tokenFields) {
    const tokenId = checkTokenId(params.token_id!);
    if (tokenId.isErr()) return err<object, ApiError>(tokenId.error);
    Object.assign(fields, { tokenKind: params.token_kind, tokenId: tokenId.value, bouncerPublicKey: params.bouncer_public_key, encryptedPushRegistration: params.encrypted_push_registration });
  }
  return transactionAs(ctx, requester, async (tx, { user }) => {
    const device = await tx.push.device(user.realmId, user.id, params.device_id);
    if (!device) return err(invalidDeviceId());
    const changed = tokenFields ? await registerToken(ctx, tx, user, device, fields) : await rotateKey(ctx, tx, user, device, fields);
    return changed.map(() => ({}));
  });
});

async function rotateKey(ctx: Ctx, tx: Tx, user: User, device: ClientDevice, f: Fields) {
  if (device.pushKeyId === null) return err<void, ApiError>(badRequest('No push registration exists to rotate key for.'));
  if (device.pushKeyId === f.pushKeyId && device.pushKey === f.pushKey) return ok<void, ApiError>(undefined);
  await tx.push.updateDevice(user.realmId, user.id, device.id, { pushKey: f.pushKey, pushKeyId: f.pushKeyId });
  announceDevice(ctx, tx, user, { op: 'update', device_id: device.id, push_key_id: f.pushKeyId });
  return ok<void, ApiError>(undefined);
}

async function registerToken(ctx: Ctx, tx: Tx, user: User, device: ClientDevice, f: Fields) {
  // One registration at a time per device: a second would race the first with the push service.
  if (device.pushRegistrationErrorCode === null && device.pendingPushTokenId !== null) {
    return err<void, ApiError>(badRequest('A registration for the device already in progress.'));
  }
  const healthy = device.pushRegistrationErrorCode === null;
  if (f.pushKey === undefined) {
    if (device.pushKeyId === null) return err<void, ApiError>(badRequest('No push registration exists to rotate token for.'));
    if (healthy && device.pushTokenId === f.tokenId) return ok<void, ApiError>(undefined);
  } else if (healthy && device.pushKeyId === f.pushKeyId && device.pushKey === f.pushKey && device.pushTokenId === f.tokenId && device.pushTokenKind === f.tokenKind) {
    return ok<void, ApiError>(undefined);
  }
  const now = Math.floor(ctx.clock.now() / 1000);
  const keyChange = f.pushKey === undefined ? {} : { pushKey: f.pushKey, pushKeyId: f.pushKeyId, pushTokenKind: f.tokenKind };
  await tx.push.updateDevice(user.realmId, user.id, device.id, { ...keyChange, pendingPushTokenId: f.tokenId, pushTokenLastUpdatedTimestamp: now, pushRegistrationErrorCode: null });
  announceDevice(ctx, tx, user, {
    op: 'update',
    device_id: device.id,
    ...(f.pushKey === undefined ? {} : { push_key_id: f.pushKeyId }),
    pending_push_token_id: f.tokenId,
    push_token_last_updated_timestamp: now,
    push_registration_error_code: null,
  });
  scheduleDeviceRegistration(ctx, tx, {
    realmId: user.realmId,
    userId: user.id,
    deviceId: device.id,
    tokenKind: (f.tokenKind ?? device.pushTokenKind)!,
    tokenId: f.tokenId!,
    bouncerPublicKey: f.bouncerPublicKey!,
    encryptedPushRegistration: f.encryptedPushRegistration!,
  });
  return ok<void, ApiError>(undefined);
}
