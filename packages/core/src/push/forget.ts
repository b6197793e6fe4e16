/**
 * A new API key logs the user out of every mobile device (the reference's
 * do_regenerate_api_key): their device tokens go, and since FL 492 their E2EE push
 * registrations too, so that no notification reaches a device that can no longer sign in.
 */
import type { Ctx } from '../context.js';
import { publishOnCommit } from '../events/publish.js';
import type { ClientDevicePatch, Tx, User } from '../storage/types.js';

const NO_REGISTRATION: ClientDevicePatch = {
  pushKey: null,
  pushKeyId: null,
  pushTokenKind: null,
  pushTokenId: null,
  pendingPushTokenId: null,
  pushTokenLastUpdatedTimestamp: null,
  pushRegistrationErrorCode: null,
};

/** Forgets the user's push registrations inside the caller's transaction; each cleared device gets a `device` update event. */
export async function forgetPushRegistrations(ctx: Ctx, tx: Tx, user: Pick<User, 'realmId' | 'id'>): Promise<void> {
  await tx.push.removeTokens(user.realmId, user.id);
  for (const device of await tx.push.devicesOf(user.realmId, [user.id])) {
    if (device.pushKeyId === null && device.pushTokenId === null && device.pendingPushTokenId === null) continue;
    await tx.push.updateDevice(user.realmId, user.id, device.id, NO_REGISTRATION);
    publishOnCommit(ctx, tx, {
      realmId: user.realmId,
      userIds: [user.id],
      event: {
        type: 'device',
        op: 'update',
        device_id: device.id,
        push_key_id: null,
        push_token_id: null,
        pending_push_token_id: null,
        push_token_last_updated_timestamp: null,
        push_registration_error_code: null,
      },
    });
  }
}
