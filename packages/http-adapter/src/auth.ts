/** HTTP Basic credentials, decoded in the reference's order (FACTS.md 3.2). */
import { type ApiError, authenticateRequest, badRequest, type Caller, type Ctx, type Operation, resolveRealm, unauthorized } from '@teamchat/core';
import { extend } from '@teamchat/core/internal';
import { err, ok, type Result } from 'neverthrow';
import { clientIpOf } from './client-ip.js';
import { noteCaller } from './request-record.js';

export interface BasicCredentials {
  email: string;
  apiKey: string;
}

/** Credentials must be valid UTF-8; one decoder serves every request (it keeps no state between calls). */
const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Headers already decoded to credentials, by the header's text: a client sends the same header
 * with every request, and decoding it (a regular expression, base64, UTF-8) cost more than the
 * lookup. Only the text is kept, nothing checked against the store: a key changed or revoked is
 * refused by authentication as before. Past `DECODED_LIMIT` headers the oldest is dropped; the
 * bound is well above the number of users a server has polling at once (a thousand long-polls,
 * one header each, must not cycle through it).
 */
const decodedHeaders = new Map<string, Readonly<BasicCredentials>>();
const DECODED_LIMIT = 10_000;

/** Null when the request carries no Authorization header at all. */
export function readBasicCredentials(header: string | null): Result<BasicCredentials | null, ApiError> {
  const known = header === null ? undefined : decodedHeaders.get(header);
  // Literals, not spreads: a spread copy of a frozen object got a hidden class of its own per call.
  if (known) return ok({ email: known.email, apiKey: known.apiKey });
  const read = decodeBasicCredentials(header);
  // Only decoded credentials are kept: a refused header is decoded again each time it comes.
  if (header !== null && read.isOk() && read.value !== null) {
    if (decodedHeaders.size >= DECODED_LIMIT) decodedHeaders.delete(decodedHeaders.keys().next().value!);
    decodedHeaders.set(header, Object.freeze({ email: read.value.email, apiKey: read.value.apiKey }));
  }
  return read;
}

function decodeBasicCredentials(header: string | null): Result<BasicCredentials | null, ApiError> {
  if (header === null || header.trim() === '') return ok(null);
  const parts = header.trim().split(/\s+/);
  const invalid = unauthorized('Invalid authorization header for basic auth');
  // The reference unpacks exactly two tokens first (a ValueError, so 401), then checks the scheme (400).
  if (parts.length !== 2) return err(invalid);
  if (parts[0]!.toLowerCase() !== 'basic') return err(badRequest('This endpoint requires HTTP basic authentication.'));
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(parts[1]!)) return err(invalid);
  let decoded: string;
  try {
    decoded = utf8.decode(Buffer.from(parts[1]!, 'base64'));
  } catch {
    return err(invalid);
  }
  const pieces = decoded.split(':');
  if (pieces.length !== 2) return err(invalid);
  return ok({ email: pieces[0]!.trim(), apiKey: pieces[1]!.trim() });
}

/**
 * Resolves the realm from the Host header and, where the operation uses identity, the user
 * from Basic credentials. Operations without identity ignore any credentials sent.
 */
export async function identify(ctx: Ctx, operation: Pick<Operation<unknown, unknown>, 'auth'>, request: Request): Promise<Result<Caller, ApiError>> {
  const host = request.headers.get('host');
  const credentials = operation.auth === 'none' ? ok(null) : readBasicCredentials(request.headers.get('authorization'));
  if (credentials.isErr()) {
    // An unknown realm is reported before malformed credentials.
    const realm = await resolveRealm(ctx, host);
    return err(realm.isErr() ? realm.error : credentials.error);
  }
  // The realm and the user are looked up in one read of the store.
  const identified = await authenticateRequest(ctx, host, credentials.value);
  if (identified.isErr()) return err(identified.error);
  const caller = extend(identified.value, { clientIp: clientIpOf(request, ctx.config.trustedProxyHops) });
  noteCaller(request, caller);
  return ok(caller);
}
