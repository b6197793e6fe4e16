/**
 * Completing an E2EE push registration (the reference's handle_register_push_device_to_bouncer):
 * after the request commits, the notifier registers the token with the push service; the
 * outcome moves the pending token to registered or records the error, with a `device` event.
 */
import { ok } from 'neverthrow';
import type { Ctx } from '../context.js';
import { publishOnCommit } from '../events/publish.js';
import type { Tx } from '../storage/types.js';
import { inBackground } from './background.js';
import type { PushDeviceRegistration, PushRegistrationOutcome } from './notifier.js';

/** Hands `registration` to the notifier after commit; the device is updated when it answers. */
export function scheduleDeviceRegistration(ctx: Ctx, tx: Tx, registration: PushDeviceRegistration): void {
  const register = ctx.pushNotifier?.registerDevice?.bind(ctx.pushNotifier);
  if (!register) return;
  tx.afterCommit(() =>
    inBackground(ctx, async () => {
      let outcome: PushRegistrationOutcome;
      try {
        outcome = await register(registration);
      } catch (error) {
        ctx.logger.error({ err: error }, 'push device registration failed');
        // The reference gives up with REQUEST_EXPIRED; the client then retries with a fresh payload.
        outcome = { registered: false, errorCode: 'REQUEST_EXPIRED' };
      }
      await recordOutcome(ctx, registration, outcome);
    }),
  );
}

/** Applies the outcome unless the device was removed or a newer token is pending meanwhile. */
async function recordOutcome(ctx: Ctx, r: PushDeviceRegistration, outcome: PushRegistrationOutcome): Promise<void> {
  await ctx.storage.transaction(async (tx) => {
    const device = await tx.push.device(r.realmId, r.userId, r.deviceId);
    if (!device || device.pendingPushTokenId !== r.tokenId || device.pushRegistrationErrorCode !== null) return ok(undefined);
    const user = { realmId: r.realmId, userIds: [r.userId] };
    if (outcome.registered) {
      await tx.push.updateDevice(r.realmId, r.userId, r.deviceId, { pushTokenId: r.tokenId, pendingPushTokenId: null });
      publishOnCommit(ctx, tx, { ...user, event: { type: 'device', op: 'update', device_id: r.deviceId, push_token_id: r.tokenId, pending_push_token_id: null } });
    } else {
      await tx.push.updateDevice(r.realmId, r.userId, r.deviceId, { pushRegistrationErrorCode: outcome.errorCode });
      publishOnCommit(ctx, tx, { ...user, event: { type: 'device', op: 'update', device_id: r.deviceId, push_registration_error_code: outcome.errorCode } });
    }
    return ok(undefined);
  });
}
