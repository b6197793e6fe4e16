/**
 * The counting behind the rate limits: a RateLimiter keeps one number per bucket and updates it
 * atomically. The rules (which bucket a request counts in, how large it is) and the decision
 * made from the counts live in check.ts; a limiter only keeps the counts, in memory
 * (memory.ts) or in a database that several server processes share (`@teamchat/postgres`).
 */

/** One rule applied to one subject: `requests` per `windowMs`, under a key naming both. */
export interface RateLimitBucket {
  key: string;
  requests: number;
  windowMs: number;
}

/** What counting one request in a bucket gave. */
export interface RateLimitHit {
  /** The request fitted in the bucket, and was counted. */
  allowed: boolean;
  /** When the bucket is empty again (ms since the epoch), after this request. */
  emptyAtMs: number;
}

/**
 * Where request counts are kept. Each bucket is a leaky bucket (the reference server's in-memory
 * limiter, GCRA): it holds the time it is empty again; every request adds `windowMs / requests`
 * to it, and a request fits while the bucket stays within `windowMs` of now. So a subject may
 * send `requests` at once, then one every `windowMs / requests`, and never more than `requests`
 * more than that rate allows over any interval. One number per bucket, whatever the rate.
 *
 * Contract, for each bucket in `buckets`, atomically with respect to every other call on any
 * process sharing the limiter's store: let `start` be the later of `nowMs` and the bucket's
 * stored empty time (an unknown bucket is empty, at `nowMs`), and `cost` be
 * `windowMs / requests`. When `start + cost <= nowMs + windowMs` (within 1 µs, for rounding),
 * the bucket's empty time becomes `start + cost` and the hit is allowed; otherwise the bucket is
 * left as it was and the hit is refused. Each bucket decides alone: a request refused by one
 * bucket still counts in the others. `emptyAtMs` is the bucket's empty time after the call.
 * `takeFromBucket` is this rule for one bucket.
 *
 * A limiter may forget buckets (memory bounds, pruning), which forgives their subjects: never
 * counting more than was sent is what it must not do.
 */
export interface RateLimiter {
  /** Counts one request in each bucket at `nowMs` (the keys of one call are distinct); answers in the order of `buckets`. */
  hit(buckets: readonly RateLimitBucket[], nowMs: number): Promise<RateLimitHit[]>;
  /** Releases what the limiter holds (connections); the context does not close it. */
  close?(): Promise<void>;
}

/** Rounding allowance of the fit test: costs like 60000/7 ms do not add up exactly. */
export const FIT_TOLERANCE_MS = 0.001;

/** The contract's step for one bucket whose stored empty time is `emptyAtMs` (undefined: unknown). */
export function takeFromBucket(emptyAtMs: number | undefined, bucket: RateLimitBucket, nowMs: number): RateLimitHit {
  const start = Math.max(emptyAtMs ?? nowMs, nowMs);
  const next = start + bucket.windowMs / bucket.requests;
  if (next <= nowMs + bucket.windowMs + FIT_TOLERANCE_MS) return { allowed: true, emptyAtMs: next };
  return { allowed: false, emptyAtMs: start };
}
