/**
 * Temporary, credential-free URLs for uploaded files (the reference's
 * generate_unauthed_file_access_url): mobile apps hand a file to the system browser or viewer,
 * which cannot send the API credentials. The token names the file and its expiry and is signed
 * with a key of this context, so it cannot be forged or stretched, and nothing is stored.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Ctx } from '../context.js';

/** How long a temporary URL works (the reference: 60 seconds). */
export const TEMPORARY_URL_SECONDS = 60;

// One signing key per context, made on first use. Every process of a deployment would need the
// same key to accept each other's URLs; one process needs nothing shared.
const KEYS = new WeakMap<Ctx, Buffer>();
const keyOf = (ctx: Ctx) => KEYS.get(ctx) ?? KEYS.set(ctx, ctx.randomBytes(32)).get(ctx)!;

const sign = (ctx: Ctx, payload: string) => createHmac('sha256', keyOf(ctx)).update(payload).digest('base64url');

/** The token for `pathId` (`realm_id/…/name`), valid from now for TEMPORARY_URL_SECONDS. */
export function temporaryToken(ctx: Ctx, pathId: string): string {
  const payload = Buffer.from(JSON.stringify([pathId, ctx.clock.now() + TEMPORARY_URL_SECONDS * 1000])).toString('base64url');
  return `${payload}.${sign(ctx, payload)}`;
}

/** The path ID a token names, or null when it is malformed, forged or expired. */
export function pathIdOfToken(ctx: Ctx, token: string): string | null {
  const [payload, signature, ...rest] = token.split('.');
  if (!payload || !signature || rest.length > 0) return null;
  const expected = Buffer.from(sign(ctx, payload));
  const given = Buffer.from(signature);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  try {
    const [pathId, expires] = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as [unknown, unknown];
    if (typeof pathId !== 'string' || typeof expires !== 'number' || ctx.clock.now() > expires) return null;
    return pathId;
  } catch {
    return null;
  }
}
