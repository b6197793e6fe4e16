/**
 * Input of the push-registration endpoints (the reference's views/push_notifications.py). The
 * token's own rules (length, APNs hex, app ID) live in push/tokens.ts, for their exact errors.
 */
import { type } from 'superstruct';
import { Str } from './wire.js';

export const AddApnsTokenParams = type({ token: Str, appid: Str });
export const PushTokenParams = type({ token: Str });
