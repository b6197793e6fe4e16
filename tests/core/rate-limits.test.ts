/**
 * The decision of the API rate limits (core rate-limits/check.ts): which requests count, in
 * which domain, and what the decision reports (the reference's X-RateLimit-* values and its 429).
 */
import { type ApiError, checkRateLimit, doSendMessage, getEvents, type RateLimiter, type ServerConfig } from '@teamchat/core';
import { createContext, createMemoryCluster } from '@teamchat/core/internal';
import { httpStatus } from '@teamchat/http-adapter';
import { describe, expect, it } from 'vitest';
import { makeWorld, type World } from '../helpers/core.js';
import { fakeClock } from './fixtures.js';

const T0 = 1_700_000_000_000;

async function limitedWorld(config: Partial<ServerConfig> = { rateLimiting: true }, rateLimiter?: RateLimiter) {
  const clock = fakeClock(T0);
  const errors: unknown[] = [];
  const logger = { error: (data: unknown) => errors.push(data), warn: () => undefined, info: () => undefined, debug: () => undefined };
  const w = await makeWorld({ clock, config, rateLimiter, logger });
  return { w, clock, errors };
}

/** `count` requests to send a message as `caller`, answered with the last decision. */
async function send(w: World, caller: Parameters<typeof checkRateLimit>[2], count = 1) {
  let decision = null;
  for (let i = 0; i < count; i++) decision = await checkRateLimit(w.ctx, doSendMessage, caller);
  return decision;
}

describe('checkRateLimit', () => {
  it('is off unless the context turns it on (in-process callers and test servers are never refused)', async () => {
    const { w } = await limitedWorld({});
    expect(w.ctx.config.rateLimiting).toBe(false);
    expect(await send(w, w.as(w.owner), 500)).toBeNull();
  });

  it('counts an authenticated user 200 a minute (api_by_user), reporting limit, remaining and the reset time', async () => {
    const { w } = await limitedWorld();
    expect(await send(w, w.as(w.owner))).toEqual({ refusal: null, limit: 200, remaining: 199, resetAt: Math.floor((T0 + 300) / 1000) });
    expect(await send(w, w.as(w.owner), 198)).toEqual({ refusal: null, limit: 200, remaining: 1, resetAt: Math.floor((T0 + 59_700) / 1000) });
    expect(await send(w, w.as(w.owner))).toEqual({ refusal: null, limit: 200, remaining: 0, resetAt: Math.floor((T0 + 60_000) / 1000) });
  });

  it('refuses the 201st request of a minute with RATE_LIMIT_HIT (429) and the seconds until one more fits', async () => {
    const { w, clock } = await limitedWorld();
    await send(w, w.as(w.owner), 200);
    const refused = await send(w, w.as(w.owner));
    expect(refused).toMatchObject({ limit: 200, remaining: 0, resetAt: Math.floor((T0 + 60_000) / 1000) });
    const error = refused!.refusal as ApiError;
    expect({ code: error.code, msg: error.msg, status: httpStatus(error), data: error.data }).toEqual({
      code: 'RATE_LIMIT_HIT',
      msg: 'API usage exceeded rate limit',
      status: 429,
      data: { 'retry-after': 0.3 },
    });
    clock.advance(100);
    expect((await send(w, w.as(w.owner)))!.refusal!.data['retry-after']).toBeCloseTo(0.2, 9);
    clock.advance(200);
    expect((await send(w, w.as(w.owner)))!.refusal).toBeNull();
  });

  it('counts each user apart', async () => {
    const { w } = await limitedWorld();
    const other = await w.addUser({ email: 'other@example.com' });
    await send(w, w.as(w.owner), 200);
    expect((await send(w, w.as(w.owner)))!.refusal).not.toBeNull();
    expect(await send(w, w.as(other))).toMatchObject({ refusal: null, remaining: 199 });
  });

  it('does not count the long-poll GET /events', async () => {
    const { w } = await limitedWorld();
    expect(await checkRateLimit(w.ctx, getEvents, w.as(w.owner))).toBeNull();
    await send(w, w.as(w.owner), 200);
    expect(await checkRateLimit(w.ctx, getEvents, w.as(w.owner))).toBeNull();
  });

  it('counts a caller without a user by address, 100 a minute (api_by_ip); IPv6 by its /64; no address, no count', async () => {
    const { w } = await limitedWorld();
    const from = (clientIp: string | null) => ({ realm: w.realm, user: null, clientIp });
    expect(await send(w, from('203.0.113.7'))).toEqual({ refusal: null, limit: 100, remaining: 99, resetAt: Math.floor((T0 + 600) / 1000) });
    await send(w, from('203.0.113.7'), 99);
    expect((await send(w, from('203.0.113.7')))!.refusal!.data['retry-after']).toBeCloseTo(0.6, 9);
    expect(await send(w, from('::ffff:203.0.113.7'))).toMatchObject({ remaining: 0 });
    expect(await send(w, from('203.0.113.8'))).toMatchObject({ refusal: null, remaining: 99 });
    await send(w, from('2001:db8:1:2::1'), 100);
    expect((await send(w, from('2001:db8:1:2:ffff::9')))!.refusal).not.toBeNull();
    expect((await send(w, from('2001:db8:1:3::1')))!.refusal).toBeNull();
    expect(await send(w, from(null), 300)).toBeNull();
  });

  it('applies every rule of a domain: the smallest limit and remaining, the latest reset, the longest wait', async () => {
    const rules = {
      api_by_user: [
        { requests: 2, seconds: 1 },
        { requests: 5, seconds: 60 },
      ],
      api_by_ip: [],
    };
    const { w, clock } = await limitedWorld({ rateLimiting: true, rateLimitRules: rules });
    expect(await send(w, w.as(w.owner))).toEqual({ refusal: null, limit: 2, remaining: 1, resetAt: Math.floor((T0 + 12_000) / 1000) });
    expect(await send(w, w.as(w.owner))).toMatchObject({ refusal: null, remaining: 0 });
    // The 1-second rule refuses; the 60-second one counted it.
    expect((await send(w, w.as(w.owner)))!.refusal!.data['retry-after']).toBeCloseTo(0.5, 9);
    clock.advance(1000);
    expect(await send(w, w.as(w.owner))).toMatchObject({ refusal: null, remaining: 1 });
    expect(await send(w, w.as(w.owner))).toMatchObject({ refusal: null, remaining: 0 });
    // Now the 60-second rule is full (five counted): one more fits 12 s after its first.
    const refused = await send(w, w.as(w.owner));
    expect(refused!.refusal!.data['retry-after']).toBeCloseTo(11, 9);
    // A domain without rules counts nothing.
    expect(await send(w, { realm: w.realm, user: null, clientIp: '198.51.100.1' })).toBeNull();
  });

  it('lets the request through and reports it when the limiter fails (its database unreachable)', async () => {
    const failing: RateLimiter = { hit: () => Promise.reject(new Error('connection refused')) };
    const { w, errors } = await limitedWorld({ rateLimiting: true }, failing);
    expect(await send(w, w.as(w.owner))).toBeNull();
    expect(errors).toHaveLength(1);
  });

  it('counts requests on every node of a cluster together (the memory cluster, as PostgreSQL does)', async () => {
    const cluster = createMemoryCluster();
    const clock = fakeClock(T0);
    const config = { rateLimiting: true, timers: false, rateLimitRules: { api_by_user: [{ requests: 3, seconds: 60 }], api_by_ip: [] } };
    const w = await makeWorld({ clock, cluster: cluster.join('a'), config });
    const b = createContext({ storage: w.ctx.storage, clock, cluster: cluster.join('b'), config });
    try {
      expect(await checkRateLimit(w.ctx, doSendMessage, w.as(w.owner))).toMatchObject({ remaining: 2 });
      expect(await checkRateLimit(b, doSendMessage, w.as(w.owner))).toMatchObject({ remaining: 1 });
      expect(await checkRateLimit(w.ctx, doSendMessage, w.as(w.owner))).toMatchObject({ refusal: null, remaining: 0 });
      expect((await checkRateLimit(b, doSendMessage, w.as(w.owner)))!.refusal).not.toBeNull();
    } finally {
      await w.ctx.cluster!.close();
      await b.cluster!.close();
    }
  });
});
