/**
 * POST /fetch_api_key limits over HTTP (issue #10): the client address comes from the
 * connection, or from X-Forwarded-For only behind configured proxies; 429 carries Retry-After.
 */
import type { ServerConfig } from '@teamchat/core';
import { afterEach, describe, expect, it } from 'vitest';
import { makeWorld } from '../helpers/core.js';
import { type ApiResponse, call, closeServers, expectError, expectSuccess, form, startServer } from '../helpers/http.js';

afterEach(closeServers);

const serverWith = async (config: Partial<ServerConfig>) => startServer(await makeWorld({ config: { timers: false, ...config } }));

const fetchKey = (server: Awaited<ReturnType<typeof startServer>>, username: string, password: string, forwardedFor?: string) =>
  call(server, 'POST', '/fetch_api_key', {
    body: form({ username, password }),
    headers: forwardedFor === undefined ? {} : { 'x-forwarded-for': forwardedFor },
  });

const failed = (response: ApiResponse) => expectError(response, 401, 'AUTHENTICATION_FAILED', 'Your username or password is incorrect');

/** The reference's 429: RATE_LIMIT_HIT with `retry-after` in the body and the Retry-After header, in seconds. */
function expectLimited(response: ApiResponse): number {
  expectError(response, 429, 'RATE_LIMIT_HIT', 'API usage exceeded rate limit');
  expect(Object.keys(response.body).sort()).toEqual(['code', 'msg', 'result', 'retry-after']);
  const wait = response.body['retry-after'];
  expect(typeof wait).toBe('number');
  expect(wait).toBeGreaterThan(0);
  expect(Number(response.headers.get('retry-after'))).toBe(wait);
  return wait;
}

describe('POST /fetch_api_key limits', () => {
  it('limits one address guessing at many emails: 429 with Retry-After, the owner included from there', async () => {
    const server = await serverWith({ loginFailureLimitPerIp: 4 });
    for (let i = 0; i < 4; i++) failed(await fetchKey(server, `user${i}@example.com`, 'guess'));
    const wait = expectLimited(await fetchKey(server, 'user9@example.com', 'guess'));
    expect(wait).toBeGreaterThan(1790);
    expect(wait).toBeLessThanOrEqual(1800);
    expectLimited(await fetchKey(server, 'owner@example.com', 'owner-password'));
  });

  it('ignores X-Forwarded-For by default: a client cannot escape its limit by writing it', async () => {
    const server = await serverWith({ loginFailureLimitPerIp: 4 });
    for (let i = 0; i < 4; i++) failed(await fetchKey(server, `user${i}@example.com`, 'guess', `198.51.100.${i}`));
    expectLimited(await fetchKey(server, 'user9@example.com', 'guess', '198.51.100.200'));
  });

  it('behind one trusted proxy, limits the address the proxy saw: the owner logs in from another while a guesser is limited', async () => {
    const server = await serverWith({ trustedProxyHops: 1 });
    for (let i = 0; i < 5; i++) failed(await fetchKey(server, 'owner@example.com', 'guess', '203.0.113.9'));
    expectLimited(await fetchKey(server, 'owner@example.com', 'owner-password', '203.0.113.9'));
    // Entries the client wrote itself come before the proxy's and are not believed.
    expectLimited(await fetchKey(server, 'owner@example.com', 'owner-password', '198.51.100.7, 203.0.113.9'));
    const body = expectSuccess(await fetchKey(server, 'owner@example.com', 'owner-password', '198.51.100.7'));
    expect(body.user_id).toBe(server.world.owner.id);
  });

  it('behind two trusted proxies, takes the second address from the right', async () => {
    const server = await serverWith({ trustedProxyHops: 2 });
    for (let i = 0; i < 5; i++) failed(await fetchKey(server, 'owner@example.com', 'guess', `10.${i}.0.1, 203.0.113.9, 10.0.0.2`));
    expectLimited(await fetchKey(server, 'owner@example.com', 'owner-password', '203.0.113.9, 10.0.0.2'));
    expectSuccess(await fetchKey(server, 'owner@example.com', 'owner-password', '198.51.100.7, 10.0.0.2'));
  });

  it('an overlong password is refused like a wrong one (401), not a 5xx', async () => {
    const server = await serverWith({});
    failed(await fetchKey(server, 'owner@example.com', 'x'.repeat(100_000)));
  });
});
