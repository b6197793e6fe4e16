/** The reference's rules for push device tokens (views/push_notifications.py validate_token). */
import { err, ok, type Result } from 'neverthrow';
import { type ApiError, badRequest } from '../errors.js';
import type { PushTokenKind } from '../storage/types.js';

/** The reference's bound on a token's length. */
export const PUSH_TOKEN_MAX_LENGTH = 4096;

/** An APNs token is the device token's bytes in hex (the reference: bytes.fromhex). */
const HEX_BYTES = /^(?:[0-9a-fA-F]{2})+$/;
/** The reference's ApnsAppId: a bundle ID such as org.zulip.Zulip. */
const APP_ID = /^[.a-zA-Z0-9-]+$/;

/** Empty and overlong tokens of either kind, and APNs tokens that are not hex, are refused. */
export function checkPushToken(token: string, kind: PushTokenKind): Result<string, ApiError> {
  if (token === '' || token.length > PUSH_TOKEN_MAX_LENGTH) return err(badRequest('Empty or invalid length token'));
  if (kind === 'apns' && !HEX_BYTES.test(token)) return err(badRequest('Invalid APNS token'));
  return ok(token);
}

/** The `appid` of an APNs registration. */
export function checkAppId(appId: string): Result<string, ApiError> {
  return APP_ID.test(appId) && appId.length <= PUSH_TOKEN_MAX_LENGTH ? ok(appId) : err(badRequest('Invalid app ID'));
}
