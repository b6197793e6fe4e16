/**
 * The API rate limits over HTTP: the reference's X-RateLimit-* headers on counted answers, its
 * 429 (RATE_LIMIT_HIT, `retry-after` in the body and the Retry-After header), per user and per
 * address, GET /events not counted, and nothing at all when limits are off (the default of a
 * context, so of every test server).
 */
import type { Clock, RateLimitRules, ServerConfig } from '@teamchat/core';
import { createApp } from '@teamchat/http-adapter';
import { afterEach, describe, expect, it } from 'vitest';
import { makeWorld } from '../helpers/core.js';
import { fakeClock } from '../core/fixtures.js';
import { type ApiResponse, authOf, call, closeServers, form, startServer } from '../helpers/http.js';

afterEach(closeServers);

const RATE_HEADERS = ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset'];

/**
 * A server whose limits are on, with `rules` (the reference's by default). Its clock stands
 * still unless the test moves it: counts do not drain while a slow machine sends the requests.
 */
async function limitedServer(rules?: Partial<RateLimitRules>, config: Partial<ServerConfig> = {}, clock: Clock = fakeClock()) {
  const rateLimitRules = { api_by_user: [{ requests: 3, seconds: 60 }], api_by_ip: [{ requests: 3, seconds: 60 }], ...rules };
  const world = await makeWorld({ clock, config: { rateLimiting: true, ...(rules ? { rateLimitRules } : {}), ...config } });
  return startServer(world);
}

function rateHeaders(response: ApiResponse) {
  return { limit: response.headers.get('x-ratelimit-limit'), remaining: response.headers.get('x-ratelimit-remaining'), reset: response.headers.get('x-ratelimit-reset') };
}

/** The reference's 429: exactly these fields, Retry-After the body's seconds, the counts at 0. */
function expectRefused(response: ApiResponse, limit: number): number {
  expect(response.status).toBe(429);
  expect(Object.keys(response.body).sort()).toEqual(['code', 'msg', 'result', 'retry-after']);
  expect(response.body).toMatchObject({ result: 'error', code: 'RATE_LIMIT_HIT', msg: 'API usage exceeded rate limit' });
  const wait = response.body['retry-after'];
  expect(typeof wait).toBe('number');
  expect(wait).toBeGreaterThan(0);
  expect(Number(response.headers.get('retry-after'))).toBe(wait);
  expect(rateHeaders(response)).toMatchObject({ limit: String(limit), remaining: '0' });
  return wait;
}

describe('API rate limits over HTTP', () => {
  it('puts X-RateLimit-Limit, -Remaining and -Reset (unix seconds) on authenticated answers, errors included', async () => {
    const server = await limitedServer();
    const now = server.world.ctx.clock.now();
    const first = await call(server, 'GET', '/users/me', { auth: server.world.owner });
    expect(first.status).toBe(200);
    // Reset: when the bucket is empty again, one request (60/200 s) from now.
    expect(rateHeaders(first)).toEqual({ limit: '200', remaining: '199', reset: String(Math.floor((now + 300) / 1000)) });
    // A failed request was still counted, and says so.
    const failed = await call(server, 'GET', '/messages', { auth: server.world.owner, query: { anchor: 'nowhere' } });
    expect(failed.status).toBe(400);
    expect(rateHeaders(failed)).toMatchObject({ limit: '200', remaining: '198' });
  });

  it('answers the 201st request of a minute with 429 RATE_LIMIT_HIT (the reference’s 200 per user)', async () => {
    // The server's clock stands still: the 200 requests take no time, however slow the machine.
    const clock = fakeClock();
    const server = await limitedServer(undefined, {}, clock);
    const me = server.world.owner;
    for (let i = 0; i < 200; i++) {
      const response = await call(server, 'GET', '/users/me', { auth: me });
      expect(response.status, `request ${i + 1}`).toBe(200);
    }
    const send = form({ type: 'private', to: JSON.stringify([me.id]), content: 'refused hello' });
    const refused = await call(server, 'POST', '/messages', { auth: me, body: send });
    // One request drains every 60/200 s: that is the wait.
    expect(expectRefused(refused, 200)).toBeCloseTo(0.3, 9);
    clock.advance(300);
    // The refused send did not run.
    const messages = await call(server, 'GET', '/messages', { auth: me, query: { anchor: 'newest', num_before: '100', num_after: '0' } });
    expect(messages.status).toBe(200);
    expect(rateHeaders(messages)).toMatchObject({ limit: '200', remaining: '0' });
    expect(messages.body.messages.filter((m: { content: string }) => m.content.includes('refused hello'))).toEqual([]);
  });

  it('counts each user apart, with configured rules', async () => {
    const server = await limitedServer({ api_by_user: [{ requests: 3, seconds: 60 }] });
    const other = await server.world.addUser({ email: 'other@example.com' });
    for (let i = 0; i < 3; i++) expect((await call(server, 'GET', '/users/me', { auth: server.world.owner })).status).toBe(200);
    const wait = expectRefused(await call(server, 'GET', '/users/me', { auth: server.world.owner }), 3);
    expect(wait).toBe(20);
    expect(rateHeaders(await call(server, 'GET', '/users/me', { auth: other }))).toMatchObject({ limit: '3', remaining: '2' });
  });

  it('limits requests without a user per client address (api_by_ip), before reading their body', async () => {
    const server = await limitedServer({ api_by_ip: [{ requests: 3, seconds: 60 }] });
    for (let i = 0; i < 3; i++) {
      const response = await call(server, 'GET', '/server_settings');
      expect(response.status).toBe(200);
      expect(rateHeaders(response)).toMatchObject({ limit: '3', remaining: String(2 - i) });
    }
    expectRefused(await call(server, 'GET', '/server_settings'), 3);
    // Logins from the same address are refused too, whatever they send.
    expectRefused(await call(server, 'POST', '/fetch_api_key', { body: form({ username: 'owner@example.com', password: 'x'.repeat(100) }) }), 3);
    // An authenticated user on that address is counted as a user, not by the address.
    expect(rateHeaders(await call(server, 'GET', '/users/me', { auth: server.world.owner }))).toMatchObject({ limit: '3', remaining: '2' });
  });

  it('takes the address behind trusted proxies from X-Forwarded-For', async () => {
    const server = await limitedServer({ api_by_ip: [{ requests: 1, seconds: 60 }] }, { trustedProxyHops: 1 });
    const from = (ip: string) => call(server, 'GET', '/server_settings', { headers: { 'x-forwarded-for': ip } });
    expect((await from('198.51.100.1')).status).toBe(200);
    expect((await from('198.51.100.1')).status).toBe(429);
    expect((await from('198.51.100.2')).status).toBe(200);
  });

  it('does not count the long-poll GET /events, nor put the headers on its answers', async () => {
    const server = await limitedServer({ api_by_user: [{ requests: 2, seconds: 60 }] });
    const me = server.world.owner;
    const registered = await call(server, 'POST', '/register', { auth: me, body: form({ event_types: '["message"]' }) });
    expect(registered.status).toBe(200);
    expect((await call(server, 'GET', '/users/me', { auth: me })).status).toBe(200);
    expectRefused(await call(server, 'GET', '/users/me', { auth: me }), 2);
    for (let i = 0; i < 5; i++) {
      const polled = await call(server, 'GET', '/events', { auth: me, query: { queue_id: registered.body.queue_id, last_event_id: '-1', dont_block: 'true' } });
      expect(polled.status).toBe(200);
      for (const name of RATE_HEADERS) expect(polled.headers.get(name)).toBeNull();
    }
    // DELETE /events is an ordinary request: counted (and refused here).
    expectRefused(await call(server, 'DELETE', '/events', { auth: me, body: form({ queue_id: registered.body.queue_id }) }), 2);
  });

  it('does not count requests that fail authentication', async () => {
    const server = await limitedServer({ api_by_user: [{ requests: 1, seconds: 60 }] });
    const wrong = await call(server, 'GET', '/users/me', { auth: authOf({ deliveryEmail: 'owner@example.com', apiKey: 'x'.repeat(32) }) });
    expect(wrong.status).toBe(401);
    for (const name of RATE_HEADERS) expect(wrong.headers.get(name)).toBeNull();
    expect((await call(server, 'GET', '/users/me', { auth: server.world.owner })).status).toBe(200);
  });

  it('sends the same headers through app.fetch (no node response to write to)', async () => {
    const world = await makeWorld({ clock: fakeClock(), config: { rateLimiting: true, rateLimitRules: { api_by_user: [{ requests: 1, seconds: 60 }], api_by_ip: [] } } });
    const app = createApp(world.ctx);
    const get = () => Promise.resolve(app.fetch(new Request('http://chat.example.com/api/v1/users/me', { headers: { authorization: authOf(world.owner) } })));
    const ok = await get();
    expect(ok.status).toBe(200);
    expect(ok.headers.get('x-ratelimit-limit')).toBe('1');
    expect(ok.headers.get('x-ratelimit-remaining')).toBe('0');
    const refused = await get();
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('60');
    // No address through app.fetch: requests without a user are not counted.
    for (let i = 0; i < 5; i++) expect((await app.fetch(new Request('http://chat.example.com/api/v1/server_settings'))).status).toBe(200);
  });

  it('is off in a test server unless turned on: no headers, no refusals', async () => {
    const server = await startServer();
    for (let i = 0; i < 250; i++) {
      const response = await call(server, 'GET', '/users/me', { auth: server.world.owner });
      expect(response.status).toBe(200);
      if (i === 0) for (const name of RATE_HEADERS) expect(response.headers.get(name)).toBeNull();
    }
  });
});
