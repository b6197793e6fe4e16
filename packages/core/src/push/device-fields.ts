/**
 * The reference's checks of E2EE push registration fields (zerver/lib/push_registration.py
 * check_push_key, zerver/lib/devices.py b64decode_token_id_base64), and the API shape of a
 * device in register's `devices` and in `device` events.
 */
import { err, ok, type Result } from 'neverthrow';
import { type ApiError, badRequest } from '../errors.js';
import type { ClientDevice } from '../storage/types.js';

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** The push key: base64 of 33 bytes, a 0x31 prefix (libsodium's secretbox) then the key. Answers it canonical. */
export function checkPushKey(pushKey: string): Result<string, ApiError> {
  const bytes = BASE64.test(pushKey) ? Buffer.from(pushKey, 'base64') : undefined;
  if (bytes?.length !== 33 || bytes[0] !== 0x31) return err(badRequest('Invalid `push_key`'));
  return ok(bytes.toString('base64'));
}

/** A token ID: base64 of a signed 64-bit integer, kept as canonical base64 text. */
export function checkTokenId(tokenId: string): Result<string, ApiError> {
  if (!BASE64.test(tokenId)) return err(badRequest('`token_id` is not Base64 encoded'));
  const bytes = Buffer.from(tokenId, 'base64');
  // The reference stores it in a 64-bit column; longer or empty values cannot name a token.
  if (bytes.length === 0 || bytes.length > 8) return err(badRequest('Invalid `token_id`'));
  return ok(Buffer.concat([Buffer.alloc(8 - bytes.length, bytes[0]! & 0x80 ? 0xff : 0), bytes]).toString('base64'));
}

/** A device as register's `devices` shows it, keyed by its ID. */
export function formatDevice(device: ClientDevice): Record<string, unknown> {
  return {
    push_key_id: device.pushKeyId,
    push_token_id: device.pushTokenId,
    pending_push_token_id: device.pendingPushTokenId,
    push_token_last_updated_timestamp: device.pushTokenLastUpdatedTimestamp,
    push_registration_error_code: device.pushRegistrationErrorCode,
  };
}
