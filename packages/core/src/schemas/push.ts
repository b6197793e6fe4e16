/**
 * Input of the push-registration endpoints (the reference's views/push_notifications.py). The
 * token's own rules (length, APNs hex, app ID) live in push/tokens.ts, for their exact errors.
 */
import { optional, type } from './known-structs.js';
import { IntRange, json, JsonInt, OneOf, Str, Text } from './wire.js';

export const AddApnsTokenParams = type({ token: Str, appid: Str });
export const PushTokenParams = type({ token: Str });
/** POST /mobile_push/test_notification: every device of the user's, or the one whose token is given. */
export const TestPushNotificationParams = type({ token: optional(Str) });
/** POST /mobile_push/e2ee/test_notification: every registered E2EE device of the user's, or the one given. */
export const E2eeTestPushNotificationParams = type({ device_id: optional(JsonInt) });

/** POST /register_client_device takes no parameters. */
export const RegisterClientDeviceParams = type({});

/** POST /remove_client_device. */
export const RemoveClientDeviceParams = type({ device_id: JsonInt });

/**
 * POST /mobile_push/register (FL 468): the push key fields and the token fields each come
 * complete or not at all; the action says which combination it got.
 */
export const RegisterPushDeviceParams = type({
  device_id: JsonInt,
  token_kind: optional(OneOf(['fcm', 'apns'] as const)),
  push_key: optional(Text({ max: 100 })),
  push_key_id: optional(json(IntRange(0, 2 ** 32 - 1))),
  // The reference bounds these only by the request's size; a key and an encrypted token fit well within.
  bouncer_public_key: optional(Text({ max: 1000 })),
  encrypted_push_registration: optional(Text({ max: 10000 })),
  token_id: optional(Text({ max: 100 })),
});
