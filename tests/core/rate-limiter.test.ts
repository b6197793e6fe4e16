/**
 * The in-memory RateLimiter: the shared contract, and its memory bound (a client making up
 * addresses or users cannot grow it without limit).
 */
import { memoryRateLimiter, type RateLimitBucket } from '@teamchat/core';
import { describe, expect, it } from 'vitest';
import { describeRateLimiter } from '../contract/rate-limiter.case.js';

describeRateLimiter('memory', async () => ({ limiter: memoryRateLimiter(), close: async () => undefined }));

const T0 = 1_700_000_000_000;
const perMinute = (key: string, requests = 100): RateLimitBucket => ({ key, requests, windowMs: 60_000 });

describe('memoryRateLimiter memory', () => {
  it('holds at most maxKeys buckets, forgetting the least recently hit first', async () => {
    const limiter = memoryRateLimiter({ maxKeys: 3 });
    for (const key of ['a', 'b', 'c']) await limiter.hit([perMinute(key, 1)], T0);
    // 'a' is hit again (refused), so 'b' is now the stalest.
    expect((await limiter.hit([perMinute('a', 1)], T0))[0]!.allowed).toBe(false);
    await limiter.hit([perMinute('d', 1)], T0);
    expect(limiter.size).toBe(3);
    expect((await limiter.hit([perMinute('a', 1)], T0))[0]!.allowed).toBe(false);
    // 'b' was forgotten: its subject is forgiven.
    expect((await limiter.hit([perMinute('b', 1)], T0))[0]!.allowed).toBe(true);
  });

  it('drops buckets that are empty again as hits go by: a client cycling through 10,000 addresses leaves few behind', async () => {
    const limiter = memoryRateLimiter();
    // One request per address, 100 a second: each bucket is empty again 600 ms after its request.
    for (let i = 0; i < 10_000; i++) await limiter.hit([perMinute(`ip-${i}`)], T0 + i * 10);
    expect(limiter.size).toBeLessThanOrEqual(100);
  });
});
