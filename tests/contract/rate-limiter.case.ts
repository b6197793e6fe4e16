/**
 * The RateLimiter contract (core rate-limits/limiter.ts), for every limiter: the in-memory one
 * (tests/core/rate-limiter.test.ts) and PostgreSQL's (tests/cluster/rate-limiter-postgres.test.ts).
 */
import type { RateLimitBucket, RateLimiter } from '@teamchat/core';
import { afterEach, describe, expect, it } from 'vitest';

const T0 = 1_700_000_000_000;

/** A bucket of `requests` per minute. */
const bucket = (key: string, requests = 4, windowMs = 60_000): RateLimitBucket => ({ key, requests, windowMs });

export function describeRateLimiter(name: string, make: () => Promise<{ limiter: RateLimiter; close(): Promise<void> }>): void {
  describe(`RateLimiter contract: ${name}`, () => {
    const closers: (() => Promise<void>)[] = [];
    afterEach(async () => {
      for (const close of closers.splice(0)) await close();
    });
    const limiter = async () => {
      const made = await make();
      closers.push(made.close);
      return made.limiter;
    };
    const hitsOf = async (l: RateLimiter, b: RateLimitBucket, count: number, now: number) => {
      const out = [];
      for (let i = 0; i < count; i++) out.push((await l.hit([b], now))[0]!);
      return out;
    };

    it('lets a fresh bucket take `requests` at once, each adding windowMs/requests, then refuses without counting', async () => {
      const l = await limiter();
      const hits = await hitsOf(l, bucket('a'), 6, T0);
      expect(hits).toEqual([
        { allowed: true, emptyAtMs: T0 + 15_000 },
        { allowed: true, emptyAtMs: T0 + 30_000 },
        { allowed: true, emptyAtMs: T0 + 45_000 },
        { allowed: true, emptyAtMs: T0 + 60_000 },
        { allowed: false, emptyAtMs: T0 + 60_000 },
        { allowed: false, emptyAtMs: T0 + 60_000 },
      ]);
    });

    it('drains: one more fits each windowMs/requests, and a bucket whose time has passed is empty', async () => {
      const l = await limiter();
      await hitsOf(l, bucket('a'), 4, T0);
      expect(await l.hit([bucket('a')], T0 + 14_999)).toEqual([{ allowed: false, emptyAtMs: T0 + 60_000 }]);
      expect(await l.hit([bucket('a')], T0 + 15_000)).toEqual([{ allowed: true, emptyAtMs: T0 + 75_000 }]);
      // Long after: empty again, counting starts from now.
      expect(await l.hit([bucket('a')], T0 + 600_000)).toEqual([{ allowed: true, emptyAtMs: T0 + 615_000 }]);
    });

    it('keeps buckets apart by key, answers several in order, and counts a request in each bucket that has room', async () => {
      const l = await limiter();
      await hitsOf(l, bucket('full', 2), 2, T0);
      const hits = await l.hit([bucket('fresh', 2), bucket('full', 2), bucket('other', 10, 1000)], T0);
      expect(hits).toEqual([
        { allowed: true, emptyAtMs: T0 + 30_000 },
        { allowed: false, emptyAtMs: T0 + 60_000 },
        { allowed: true, emptyAtMs: T0 + 100 },
      ]);
      // The refused request counted in 'fresh' all the same.
      expect(await l.hit([bucket('fresh', 2)], T0)).toEqual([{ allowed: true, emptyAtMs: T0 + 60_000 }]);
      expect(await l.hit([], T0)).toEqual([]);
    });

    it('lets exactly `requests` fit when windowMs/requests is not exact (60000/7)', async () => {
      const l = await limiter();
      const hits = await hitsOf(l, bucket('sevenths', 7), 8, T0);
      expect(hits.map((h) => h.allowed)).toEqual([true, true, true, true, true, true, true, false]);
    });

    it('counts concurrent hits on one bucket exactly: of 20 at once, 4 are allowed', async () => {
      const l = await limiter();
      const hits = await Promise.all(Array.from({ length: 20 }, () => l.hit([bucket('race')], T0)));
      expect(hits.filter(([h]) => h!.allowed)).toHaveLength(4);
      expect(Math.max(...hits.map(([h]) => h!.emptyAtMs))).toBe(T0 + 60_000);
    });

    it('takes keys of any text (addresses, colons, quotes, non-ASCII)', async () => {
      const l = await limiter();
      for (const key of ["api_by_ip:100/60:2001:db8::/64", "it's", 'ключ', 'x'.repeat(300)]) {
        expect(await l.hit([bucket(key, 1)], T0)).toEqual([{ allowed: true, emptyAtMs: T0 + 60_000 }]);
        expect((await l.hit([bucket(key, 1)], T0))[0]!.allowed).toBe(false);
      }
    });
  });
}
