/** HTTP Basic credentials, decoded in the reference's order (FACTS.md 3.2). */
import { type ApiError, badRequest, unauthorized } from '@teamchat/core';
import { err, ok, type Result } from 'neverthrow';

export interface BasicCredentials {
  email: string;
  apiKey: string;
}

/** Null when the request carries no Authorization header at all. */
export function readBasicCredentials(header: string | null): Result<BasicCredentials | null, ApiError> {
  if (header === null || header.trim() === '') return ok(null);
  const parts = header.trim().split(/\s+/);
  const invalid = unauthorized('Invalid authorization header for basic auth');
  // The reference unpacks exactly two tokens first (a ValueError, so 401), then checks the scheme (400).
  if (parts.length !== 2) return err(invalid);
  if (parts[0]!.toLowerCase() !== 'basic') return err(badRequest('This endpoint requires HTTP basic authentication.'));
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(parts[1]!)) return err(invalid);
  let decoded: string;
  try {
    decoded = new TextDecoder('utf-8', { fatal: true }).decode(Buffer.from(parts[1]!, 'base64'));
  } catch {
    return err(invalid);
  }
  const pieces = decoded.split(':');
  if (pieces.length !== 2) return err(invalid);
  return ok({ email: pieces[0]!.trim(), apiKey: pieces[1]!.trim() });
}
