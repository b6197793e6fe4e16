/**
 * The rate limits' decision as the reference reports it in headers (its RateLimitMiddleware):
 * X-RateLimit-Limit, X-RateLimit-Remaining and X-RateLimit-Reset (unix seconds) on every answer
 * to a request the limits counted, refusals included. The decision itself is core's
 * (rate-limits/check.ts); the 429's Retry-After comes with its error (respond.ts).
 */
import type { RateLimitDecision } from '@teamchat/core';
import { WRITTEN } from './respond.js';

/** The headers as name/value pairs, in the reference's spelling. */
export function rateLimitHeaders(decision: RateLimitDecision): [string, string][] {
  return [
    ['X-RateLimit-Limit', String(decision.limit)],
    ['X-RateLimit-Remaining', String(decision.remaining)],
    ['X-RateLimit-Reset', String(decision.resetAt)],
  ];
}

/** Adds `headers` to an answer (not to one the handler already wrote: it wrote them itself). */
export function withHeaders(response: Response, headers: readonly [string, string][]): Response {
  if (response === WRITTEN) return response;
  for (const [name, value] of headers) response.headers.set(name, value);
  return response;
}
