import { type RateLimitBucket, type RateLimiter, takeFromBucket } from './limiter.js';

/** Options of `memoryRateLimiter`. */
export interface MemoryRateLimiterOptions {
  /** Buckets kept at most; past this the least recently hit are forgotten. Default 100,000. */
  maxKeys?: number;
}

/** Buckets whose time has passed are dropped this many at a time, from the least recently hit, on each hit. */
const SWEEP_PER_HIT = 4;

/**
 * A RateLimiter in this process's memory: one number per bucket, in a map ordered by last hit.
 * Memory stays bounded however many subjects clients make up (addresses, users): buckets that
 * are empty again are dropped as hits go by, and past `maxKeys` the least recently hit bucket is
 * forgotten (forgiving its subject). Counts reset when the process restarts, and processes do
 * not share them: a cluster uses `@teamchat/postgres`'s limiter instead.
 */
export function memoryRateLimiter(options: MemoryRateLimiterOptions = {}): RateLimiter & { /** Buckets held now. */ readonly size: number } {
  const maxKeys = options.maxKeys ?? 100_000;
  const emptyAt = new Map<string, number>();
  const sweep = (nowMs: number) => {
    let dropped = 0;
    for (const [key, at] of emptyAt) {
      if (at > nowMs || dropped >= SWEEP_PER_HIT) break;
      emptyAt.delete(key);
      dropped += 1;
    }
  };
  const hitOne = (bucket: RateLimitBucket, nowMs: number) => {
    const hit = takeFromBucket(emptyAt.get(bucket.key), bucket, nowMs);
    // Re-inserting moves the bucket to the end of the map's order: the stalest come first.
    emptyAt.delete(bucket.key);
    emptyAt.set(bucket.key, hit.emptyAtMs);
    if (emptyAt.size > maxKeys) emptyAt.delete(emptyAt.keys().next().value!);
    return hit;
  };
  return {
    async hit(buckets, nowMs) {
      sweep(nowMs);
      return buckets.map((bucket) => hitOne(bucket, nowMs));
    },
    get size() {
      return emptyAt.size;
    },
  };
}
