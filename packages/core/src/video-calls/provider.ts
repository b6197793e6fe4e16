import { randomBytes as cryptoRandomBytes } from 'node:crypto';
import type { User } from '../storage/types.js';

/** What a provider reports for one call request. */
export type VideoCallOutcome =
  | { url: string }
  /** `invalid_token`: the provider rejected the user's linked account (and forgot it); `failed`: any other failure. */
  | { failure: 'invalid_token' | 'failed' };

/**
 * A video-call integration the server owner configures (`Ctx.videoCalls`). Providers that act
 * for the user (OAuth) keep their own tokens and call `announceVideoProviderToken` when a user
 * links or unlinks an account, so clients learn of it through `has_videoprovider_token`.
 */
export interface VideoCallProvider {
  /** Whether the user has linked the account the provider needs; always true for providers that need none. */
  hasToken(user: User): boolean | Promise<boolean>;
  /** Creates a meeting for the user. */
  createCall(user: User, options: { isVideoCall: boolean }): Promise<VideoCallOutcome>;
}

/**
 * The built-in provider: a meeting URL is the configured base URL plus a fresh random room
 * name (as Jitsi-style servers create rooms on first join), so no per-user token is needed.
 * The URL is the same for audio-only calls: muting the camera is the client's choice.
 * Throws at configuration time when `baseUrl` is not an http(s) URL without query or fragment.
 */
export function createLinkVideoCallProvider(
  baseUrl: string,
  randomBytes: (size: number) => Buffer = cryptoRandomBytes,
): VideoCallProvider {
  const base = parseBaseUrl(baseUrl);
  return {
    hasToken: () => true,
    createCall: async () => ({ url: `${base}/${randomBytes(12).toString('hex')}` }),
  };
}

function parseBaseUrl(text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new Error(`invalid video call base URL '${text}'`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new Error(`video call base URL '${text}' must use http or https`);
  // A room name is appended as a path segment, which a query or fragment would swallow.
  if (url.search !== '' || url.hash !== '') throw new Error(`video call base URL '${text}' must not have a query or fragment`);
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}
