/**
 * Password hashes (issue #10): scrypt at OWASP's minimum cost by default, the cost stored in
 * every hash, weaker hashes redone at the next successful login, hashing off the event loop;
 * and the memory bound of the login limiter.
 */
import {
  addressKey,
  checkPassword,
  DEFAULT_CONFIG,
  doFetchApiKey,
  hashPassword,
  nodeScrypt,
  type ScryptCost,
  type ScryptFn,
} from '@teamchat/core/internal';
import { createSqliteContext } from '@teamchat/core/sqlite';
import { describe, expect, it } from 'vitest';
import { SlidingWindowCounter } from '../../packages/core/src/auth/sliding-window.js';
import { makeWorld, must, TEST_PASSWORD_HASH_COST } from '../helpers/core.js';
import { expectError, fakeClock, reload } from './fixtures.js';

/** OWASP Password Storage Cheat Sheet, scrypt: N=2^17, r=8, p=1 at least. */
const OWASP_MINIMUM: ScryptCost = { N: 2 ** 17, r: 8, p: 1 };

const costOf = (hash: string | null) => {
  const [scheme, N, r, p] = (hash ?? '').split('$');
  return { scheme, N: Number(N), r: Number(r), p: Number(p) };
};

describe('the default cost', () => {
  it('meets OWASP minimum, is stored in the hash, and is computed off the event loop', async () => {
    const { N, r, p } = DEFAULT_CONFIG.passwordHashCost;
    expect(N).toBeGreaterThanOrEqual(OWASP_MINIMUM.N);
    expect(r).toBeGreaterThanOrEqual(OWASP_MINIMUM.r);
    expect(p).toBeGreaterThanOrEqual(OWASP_MINIMUM.p);
    const ctx = createSqliteContext({ config: { timers: false } });
    try {
      // A timer set after the hash starts fires before it ends: the derivation does not hold the loop.
      const order: string[] = [];
      const hashing = hashPassword(ctx, 'correct horse').then((hash) => {
        order.push('hash');
        return hash;
      });
      await new Promise((resolve) => setTimeout(resolve, 0)).then(() => order.push('timer'));
      const hash = await hashing;
      expect(order).toEqual(['timer', 'hash']);
      expect(costOf(hash)).toEqual({ scheme: 'scrypt', ...DEFAULT_CONFIG.passwordHashCost });
      expect(await checkPassword(ctx, 'correct horse', hash)).toEqual({ matches: true, outdated: false });
      expect(await checkPassword(ctx, 'wrong horse', hash)).toEqual({ matches: false, outdated: false });
    } finally {
      await ctx.storage.close();
    }
  });
});

describe('rehash on login', () => {
  async function worldWithCounting() {
    const derivations: ScryptCost[] = [];
    const scrypt: ScryptFn = (password, salt, cost) => {
      derivations.push(cost);
      return nodeScrypt(password, salt, cost);
    };
    // The owner's password is hashed at a weaker cost than the one configured afterwards.
    const weak = { N: 256, r: 8, p: 1 };
    const w = await makeWorld({ scrypt, clock: fakeClock(), config: { passwordHashCost: weak } });
    w.ctx.config.passwordHashCost = TEST_PASSWORD_HASH_COST;
    derivations.length = 0;
    return { w, derivations, weak };
  }
  const login = (w: Awaited<ReturnType<typeof makeWorld>>, password: string) =>
    doFetchApiKey(w.ctx, { realm: w.realm, user: null, clientIp: '192.0.2.1' }, { username: 'owner@example.com', password });

  it('redoes a hash weaker than the configured cost after a successful login, then keeps it', async () => {
    const { w, derivations, weak } = await worldWithCounting();
    expect(costOf(w.owner.passwordHash)).toMatchObject(weak);
    must(await login(w, 'owner-password'));
    // One check at the stored cost, one new hash at the configured one.
    expect(derivations).toEqual([weak, TEST_PASSWORD_HASH_COST]);
    const owner = await reload(w.ctx, w.owner);
    expect(costOf(owner.passwordHash)).toEqual({ scheme: 'scrypt', ...TEST_PASSWORD_HASH_COST });
    derivations.length = 0;
    must(await login(w, 'owner-password'));
    expect(derivations).toEqual([TEST_PASSWORD_HASH_COST]);
    expect((await reload(w.ctx, w.owner)).passwordHash).toBe(owner.passwordHash);
  });

  it('does not rehash after a wrong password', async () => {
    const { w, derivations, weak } = await worldWithCounting();
    expectError(await login(w, 'wrong-password'), 'AUTHENTICATION_FAILED', 'Your username or password is incorrect', 401);
    expect(derivations).toEqual([weak]);
    expect((await reload(w.ctx, w.owner)).passwordHash).toBe(w.owner.passwordHash);
  });

  it('keeps a hash stronger than the configured cost', async () => {
    const strong = { N: 2048, r: 8, p: 1 };
    const w = await makeWorld({ config: { passwordHashCost: strong } });
    w.ctx.config.passwordHashCost = TEST_PASSWORD_HASH_COST;
    must(await login(w, 'owner-password'));
    expect((await reload(w.ctx, w.owner)).passwordHash).toBe(w.owner.passwordHash);
  });
});

describe('memory of the login limiter', () => {
  it('holds at most maxKeys keys and at most limit hits per key, however many keys clients invent', () => {
    const clock = fakeClock();
    const limiter = new SlidingWindowCounter(clock, 5, 60_000, 1000);
    for (let i = 0; i < 20_000; i++) limiter.record(`203.0.113.9:user${i}@example.com`);
    expect(limiter.size).toBe(1000);
    for (let i = 0; i < 50; i++) limiter.record('hot');
    expect(limiter.retryAfter('hot')).toBe(60);
    limiter.unrecord('hot');
    expect(limiter.retryAfter('hot')).toBe(0);
  });
});

describe('addressKey', () => {
  it('keeps IPv4 addresses, unwraps IPv4-mapped IPv6, and groups IPv6 by /64', () => {
    expect(addressKey('192.0.2.1')).toBe('192.0.2.1');
    expect(addressKey('::ffff:192.0.2.1')).toBe('192.0.2.1');
    expect(addressKey('2001:db8:1:2::1')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:0DB8:0001:0002:ffff:1:2:3')).toBe('2001:db8:1:2::/64');
    expect(addressKey('::1')).toBe('0:0:0:0::/64');
    expect(addressKey('not an address')).toBe('not an address');
  });
});
