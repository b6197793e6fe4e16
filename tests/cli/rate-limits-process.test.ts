/**
 * `teamchat serve` as a real process with its rate limits: on by default with the reference's
 * rules, configured with --rate-limit-rules, off with --no-rate-limits, a bad rule refused at start.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { spawnServe } from '../helpers/serve-child.js';

const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
});

async function serveWith(args: string[], rateLimits: boolean) {
  const dir = mkdtempSync(join(tmpdir(), 'teamchat-rate-'));
  const served = await spawnServe(['--data', dir, '--port', '0', '--shutdown-timeout', '1', ...args], 'serve', { rateLimits });
  children.push(served.child);
  const rc = readFileSync(join(dir, 'zuliprc'), 'utf8');
  const authorization = `Basic ${Buffer.from(`${/email=(.*)/.exec(rc)![1]!.trim()}:${/key=(.*)/.exec(rc)![1]!.trim()}`).toString('base64')}`;
  const get = async (path: string, auth = true, query = '') => {
    const response = await fetch(`${served.url}/api/v1${path}${query}`, { headers: auth ? { authorization } : {} });
    return { status: response.status, headers: response.headers, body: JSON.parse(await response.text()) };
  };
  const post = async (path: string, form: Record<string, string>) => {
    const response = await fetch(`${served.url}/api/v1${path}`, { method: 'POST', headers: { authorization }, body: new URLSearchParams(form) });
    return { status: response.status, headers: response.headers, body: JSON.parse(await response.text()) };
  };
  return { get, post };
}

describe('teamchat serve rate limits', () => {
  it('limits per user with --rate-limit-rules, per address with the reference’s 100/min, and leaves GET /events alone', async () => {
    const server = await serveWith(['--rate-limit-rules', 'api_by_user=4/60'], true);
    const registered = await server.post('/register', { event_types: '["message"]' });
    expect(registered.status).toBe(200);
    expect(registered.headers.get('x-ratelimit-limit')).toBe('4');
    for (const remaining of ['2', '1', '0']) {
      const me = await server.get('/users/me');
      expect(me.status).toBe(200);
      expect(me.headers.get('x-ratelimit-remaining')).toBe(remaining);
      expect(Number(me.headers.get('x-ratelimit-reset'))).toBeGreaterThan(Date.now() / 1000 - 1);
    }
    const refused = await server.get('/users/me');
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ result: 'error', code: 'RATE_LIMIT_HIT', msg: 'API usage exceeded rate limit' });
    expect(refused.body['retry-after']).toBeGreaterThan(0);
    expect(refused.body['retry-after']).toBeLessThanOrEqual(15);
    expect(Number(refused.headers.get('retry-after'))).toBe(refused.body['retry-after']);
    const polled = await server.get('/events', true, `?queue_id=${registered.body.queue_id}&last_event_id=-1&dont_block=true`);
    expect(polled.status).toBe(200);
    expect(polled.headers.get('x-ratelimit-limit')).toBeNull();
    const settings = await server.get('/server_settings', false);
    expect(settings.status).toBe(200);
    expect([settings.headers.get('x-ratelimit-limit'), settings.headers.get('x-ratelimit-remaining')]).toEqual(['100', '99']);
  });

  it('applies the reference’s 200/min per user by default, and nothing with --no-rate-limits', async () => {
    const limited = await serveWith([], true);
    const me = await limited.get('/users/me');
    expect([me.status, me.headers.get('x-ratelimit-limit'), me.headers.get('x-ratelimit-remaining')]).toEqual([200, '200', '199']);
    const free = await serveWith([], false);
    for (let i = 0; i < 5; i++) {
      const answer = await free.get('/users/me');
      expect(answer.status).toBe(200);
      expect(answer.headers.get('x-ratelimit-limit')).toBeNull();
    }
  });

  it('refuses to start with a malformed --rate-limit-rules, naming the option', async () => {
    await expect(serveWith(['--rate-limit-rules', 'api_by_user=many'], true)).rejects.toThrow(/--rate-limit-rules takes DOMAIN=REQUESTS\/SECONDS or DOMAIN=off/);
  });
});

describe('teamchat serve behind a reverse proxy', () => {
  const anonymous = async (url: string, forwardedFor: string) => {
    const response = await fetch(`${url}/api/v1/server_settings`, { headers: { 'x-forwarded-for': forwardedFor } });
    return response.headers.get('x-ratelimit-remaining');
  };

  it('counts per address from X-Forwarded-For with --trusted-proxy-hops, and ignores the header without it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'teamchat-proxy-'));
    const proxied = await spawnServe(['--data', dir, '--port', '0', '--shutdown-timeout', '1', '--trusted-proxy-hops', '1'], 'serve', { rateLimits: true });
    children.push(proxied.child);
    expect(await anonymous(proxied.url, '203.0.113.7')).toBe('99');
    expect(await anonymous(proxied.url, '203.0.113.7')).toBe('98');
    expect(await anonymous(proxied.url, '198.51.100.9')).toBe('99');
    // Only the entry our one proxy appended counts: what the client wrote before it does not.
    expect(await anonymous(proxied.url, 'forged, 203.0.113.7')).toBe('97');

    const direct = await spawnServe(['--data', mkdtempSync(join(tmpdir(), 'teamchat-proxy-')), '--port', '0', '--shutdown-timeout', '1'], 'serve', { rateLimits: true });
    children.push(direct.child);
    expect(await anonymous(direct.url, '203.0.113.7')).toBe('99');
    expect(await anonymous(direct.url, '198.51.100.9')).toBe('98');
  });

  it('refuses a --trusted-proxy-hops that is not a small whole number, naming the option', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'teamchat-proxy-'));
    await expect(spawnServe(['--data', dir, '--port', '0', '--trusted-proxy-hops', '-1'], 'serve')).rejects.toThrow(/--trusted-proxy-hops takes a whole number from 0 to 16/);
  });
});
