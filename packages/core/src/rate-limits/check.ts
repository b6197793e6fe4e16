import { addressKey } from '../auth/login-limits.js';
import type { Ctx } from '../context.js';
import { type ApiError, rateLimited } from '../errors.js';
import type { Caller } from '../operation.js';
import { isRateLimited } from './exempt.js';
import type { RateLimitBucket, RateLimitHit } from './limiter.js';
import type { RateLimitDomain } from './rules.js';

/**
 * What the rate limits say of one request, with what the reference reports of them
 * (its X-RateLimit-* headers): over every rule applied, the smallest limit and remaining count,
 * and the latest time the buckets are empty again.
 */
export interface RateLimitDecision {
  /** The error to answer instead of running the request (RATE_LIMIT_HIT, with `retry-after`), or null to run it. */
  refusal: ApiError | null;
  /** The smallest request count among the rules applied. */
  limit: number;
  /** Requests that may still be sent at once (0 when refused). */
  remaining: number;
  /** Unix seconds, whole, at which every bucket applied is empty again. */
  resetAt: number;
}

/**
 * Counts a request for `operation` from `caller` against the rate limits and decides whether it
 * may run: per user for an authenticated caller (`api_by_user`), per client address otherwise
 * (`api_by_ip`; IPv6 addresses by their /64). Null when no limit applies: limits are off
 * (`config.rateLimiting`), the operation is not counted (the long-poll GET /events), or a caller
 * without a user has no address (an in-process caller). The limiter failing (its database
 * unreachable) lets the request through and is reported: limits must not stop a server that
 * could otherwise answer.
 */
export async function checkRateLimit(ctx: Ctx, operation: object, caller: Caller): Promise<RateLimitDecision | null> {
  if (!ctx.config.rateLimiting || !isRateLimited(operation)) return null;
  const subject = subjectOf(caller);
  if (subject === null) return null;
  const buckets = bucketsOf(ctx, subject.domain, subject.key);
  if (buckets.length === 0) return null;
  const nowMs = ctx.clock.now();
  let hits: RateLimitHit[];
  try {
    hits = await ctx.rateLimiter.hit(buckets, nowMs);
  } catch (error) {
    ctx.logger.error({ err: error }, 'the rate limiter failed; the request is let through');
    return null;
  }
  return decide(buckets, hits, nowMs);
}

function subjectOf(caller: Caller): { domain: RateLimitDomain; key: string } | null {
  if (caller.user) return { domain: 'api_by_user', key: `${caller.realm.id}:${caller.user.id}` };
  if (caller.clientIp) return { domain: 'api_by_ip', key: addressKey(caller.clientIp) };
  return null;
}

/** One bucket per rule of the domain; the rule is part of the key, so a changed rule starts afresh (a rule given twice counts once). */
function bucketsOf(ctx: Ctx, domain: RateLimitDomain, subject: string): RateLimitBucket[] {
  const buckets = new Map<string, RateLimitBucket>();
  for (const rule of ctx.config.rateLimitRules[domain]) {
    const key = `${domain}:${rule.requests}/${rule.seconds}:${subject}`;
    buckets.set(key, { key, requests: rule.requests, windowMs: rule.seconds * 1000 });
  }
  return [...buckets.values()];
}

function decide(buckets: readonly RateLimitBucket[], hits: readonly RateLimitHit[], nowMs: number): RateLimitDecision {
  let limit = Number.POSITIVE_INFINITY;
  let remaining = Number.POSITIVE_INFINITY;
  let emptyAtMs = nowMs;
  let refused = false;
  let retryAfterMs = 0;
  buckets.forEach((bucket, i) => {
    const hit = hits[i]!;
    const cost = bucket.windowMs / bucket.requests;
    // Room left in the window, in requests of this bucket's cost.
    const room = Math.floor((nowMs + bucket.windowMs - hit.emptyAtMs) / cost + 1e-9);
    limit = Math.min(limit, bucket.requests);
    remaining = Math.min(remaining, hit.allowed ? Math.max(0, Math.min(bucket.requests, room)) : 0);
    emptyAtMs = Math.max(emptyAtMs, hit.emptyAtMs);
    // Refused: the bucket has room for one more once it has drained to `windowMs - cost` from now.
    if (!hit.allowed) {
      refused = true;
      retryAfterMs = Math.max(retryAfterMs, hit.emptyAtMs + cost - bucket.windowMs - nowMs);
    }
  });
  return {
    refusal: refused ? rateLimited(retryAfterMs / 1000) : null,
    limit,
    remaining,
    resetAt: Math.floor(emptyAtMs / 1000),
  };
}
