/**
 * POST /fetch_api_key under guessing (issue #10): the work a login does does not depend on
 * whether the account exists, and its limits stop guessing without locking the owner out.
 * Work is counted through an injected scrypt, never timed.
 */
import { httpStatus } from '@teamchat/http-adapter';
import { type ApiError, doAcceptInvite, doDeactivateUser, doFetchApiKey, doUpdateSettings, nodeScrypt, type ScryptCost, type ScryptFn, type ServerConfig, updateRealmAsOperator } from '@teamchat/core';
import { describe, expect, it } from 'vitest';
import { makeWorld, must, TEST_PASSWORD_HASH_COST, type World } from '../helpers/core.js';
import { expectError, fakeClock, setUser } from './fixtures.js';

/** A world whose password derivations are counted. */
async function countingWorld(config: Partial<ServerConfig> = {}, clock = fakeClock()) {
  const derivations: ScryptCost[] = [];
  const scrypt: ScryptFn = (password, salt, cost) => {
    derivations.push(cost);
    return nodeScrypt(password, salt, cost);
  };
  const w = await makeWorld({ scrypt, clock, config });
  return { w, derivations, clock };
}

const login = (w: World, username: string, password: string, clientIp?: string, realm = w.realm) =>
  doFetchApiKey(w.ctx, { realm, user: null, clientIp }, { username, password });

const AUTH_FAILED = ['AUTHENTICATION_FAILED', 'Your username or password is incorrect', 401] as const;

/** The 429 answer, with the seconds it says to wait. */
function expectRateLimited(result: { isErr(): boolean; error?: unknown }): number {
  expect(result.isErr()).toBe(true);
  const error = result.error as ApiError;
  expect({ code: error.code, msg: error.msg, status: httpStatus(error) }).toEqual({
    code: 'RATE_LIMIT_HIT',
    msg: 'API usage exceeded rate limit',
    status: 429,
  });
  const wait = error.data['retry-after'] as number;
  expect(wait).toBeGreaterThan(0);
  return wait;
}

describe('equal work whether or not the account exists', () => {
  it('derives exactly once, at the configured cost, for every kind of failed login and for a success', async () => {
    const { w, derivations } = await countingWorld();
    await w.addUser({ email: 'nopass@example.com' });
    await w.addUser({ email: 'bot@example.com', bot: true, password: 'bot-password' });
    const gone = await w.addUser({ email: 'gone@example.com', password: 'gone-password' });
    must(await doDeactivateUser(w.ctx, w.as(w.owner), { user_id: gone.id }));
    derivations.length = 0;

    const attempts: Array<[string, string]> = [
      ['owner@example.com', 'wrong-password'],
      ['nobody@example.com', 'wrong-password'],
      ['nopass@example.com', 'whatever'],
      ['bot@example.com', 'bot-password'],
      ['gone@example.com', 'gone-password'],
      ['owner@example.com', 'owner-password'],
    ];
    for (const [email, password] of attempts) {
      derivations.length = 0;
      await login(w, email, password, '192.0.2.1');
      expect({ email, derivations }).toEqual({ email, derivations: [TEST_PASSWORD_HASH_COST] });
    }
  });

  it('derives once in a deactivated organization too', async () => {
    const { w, derivations } = await countingWorld();
    const realm = must(await updateRealmAsOperator(w.ctx, w.realm, { deactivated: true }));
    derivations.length = 0;
    expectError(await login(w, 'owner@example.com', 'owner-password', '192.0.2.1', realm), 'REALM_DEACTIVATED', 'This organization has been deactivated', 401);
    expectError(await login(w, 'nobody@example.com', 'owner-password', '192.0.2.1', realm), 'REALM_DEACTIVATED', 'This organization has been deactivated', 401);
    expect(derivations).toEqual([TEST_PASSWORD_HASH_COST, TEST_PASSWORD_HASH_COST]);
  });

  it('treats a stored hash it cannot use (foreign scheme, absurd cost) as none: one derivation at the configured cost', async () => {
    const { w, derivations } = await countingWorld();
    const broken = ['scrypt$abc', 'bcrypt$2b$12$xyz', `scrypt$${2 ** 30}$8$1$c2FsdA==$${'A'.repeat(44)}`, 'scrypt$1000$8$1$c2FsdA==$AAAA'];
    for (const [i, passwordHash] of broken.entries()) {
      await setUser(w.ctx, w.owner, { passwordHash });
      derivations.length = 0;
      expectError(await login(w, 'owner@example.com', 'owner-password', `198.51.100.${i}`), ...AUTH_FAILED);
      expect(derivations).toEqual([TEST_PASSWORD_HASH_COST]);
    }
  });

  it('refuses a password longer than any stored one without deriving from it', async () => {
    const { w, derivations } = await countingWorld();
    derivations.length = 0;
    expectError(await login(w, 'owner@example.com', 'x'.repeat(1_000_000), '192.0.2.1'), ...AUTH_FAILED);
    expectError(await login(w, 'nobody@example.com', 'x'.repeat(201), '192.0.2.1'), ...AUTH_FAILED);
    expect(derivations).toEqual([]);
    // The longest password that can be set still logs in.
    await w.addUser({ email: 'long@example.com', password: 'p'.repeat(100) });
    must(await login(w, 'long@example.com', 'p'.repeat(100), '192.0.2.1'));
  });
});

describe('limits per email and address, per address, and per email', () => {
  it('five failures for one email from one address: 429 there (even with the right password), while the owner logs in from elsewhere', async () => {
    const { w, derivations } = await countingWorld();
    for (let i = 0; i < 5; i++) expectError(await login(w, 'owner@example.com', 'guess', '203.0.113.9'), ...AUTH_FAILED);
    derivations.length = 0;
    const wait = expectRateLimited(await login(w, 'owner@example.com', 'owner-password', '203.0.113.9'));
    expect(wait).toBeCloseTo(1800, 0);
    // A limited attempt costs no derivation.
    expect(derivations).toEqual([]);
    expect(must(await login(w, 'owner@example.com', 'owner-password', '192.0.2.50')).user_id).toBe(w.owner.id);
  });

  it('an unknown email is limited exactly like an existing one (the 429 tells nothing)', async () => {
    const { w } = await countingWorld();
    for (const email of ['owner@example.com', 'nobody@example.com']) {
      for (let i = 0; i < 5; i++) expectError(await login(w, email, 'guess', '203.0.113.9'), ...AUTH_FAILED);
      expectRateLimited(await login(w, email, 'guess', '203.0.113.9'));
    }
  });

  it('one guess each at many emails from one address hits the per-address limit; other addresses are unaffected', async () => {
    const { w, derivations } = await countingWorld({ loginFailureLimitPerIp: 12 });
    for (let i = 0; i < 12; i++) expectError(await login(w, `user${i}@example.com`, 'guess', '203.0.113.9'), ...AUTH_FAILED);
    derivations.length = 0;
    expectRateLimited(await login(w, 'user99@example.com', 'guess', '203.0.113.9'));
    expectRateLimited(await login(w, 'owner@example.com', 'owner-password', '203.0.113.9'));
    expect(derivations).toEqual([]);
    must(await login(w, 'owner@example.com', 'owner-password', '203.0.113.10'));
  });

  it('counts the addresses of an IPv6 /64 as one', async () => {
    const { w } = await countingWorld({ loginFailureLimitPerIp: 3 });
    for (let i = 1; i <= 3; i++) expectError(await login(w, `user${i}@example.com`, 'guess', `2001:db8:1:2::${i}`), ...AUTH_FAILED);
    expectRateLimited(await login(w, 'user9@example.com', 'guess', '2001:db8:1:2:ffff:1:2:3'));
    expectError(await login(w, 'user9@example.com', 'guess', '2001:db8:1:3::1'), ...AUTH_FAILED);
  });

  it('guessing one email from many addresses hits the per-email ceiling, except from an address that logged in to it before', async () => {
    const { w } = await countingWorld({ loginFailureLimitPerAccount: 6 });
    must(await login(w, 'owner@example.com', 'owner-password', '192.0.2.77'));
    for (let i = 1; i <= 6; i++) expectError(await login(w, 'owner@example.com', 'guess', `203.0.113.${i}`), ...AUTH_FAILED);
    expectRateLimited(await login(w, 'owner@example.com', 'owner-password', '203.0.113.200'));
    expect(must(await login(w, 'owner@example.com', 'owner-password', '192.0.2.77')).user_id).toBe(w.owner.id);
  });

  it('a successful login forgets the failures from its address, as the reference does', async () => {
    const { w } = await countingWorld();
    for (let round = 0; round < 3; round++) {
      for (let i = 0; i < 4; i++) expectError(await login(w, 'owner@example.com', 'guess', '192.0.2.1'), ...AUTH_FAILED);
      must(await login(w, 'owner@example.com', 'owner-password', '192.0.2.1'));
    }
  });

  it('successful logins do not use up the per-address limit (an office behind one address)', async () => {
    const { w } = await countingWorld({ loginFailureLimitPerIp: 3 });
    for (let i = 0; i < 10; i++) must(await login(w, 'owner@example.com', 'owner-password', '192.0.2.1'));
  });

  it('limits end with the window', async () => {
    const { w, clock } = await countingWorld();
    for (let i = 0; i < 5; i++) expectError(await login(w, 'owner@example.com', 'guess', '192.0.2.1'), ...AUTH_FAILED);
    const wait = expectRateLimited(await login(w, 'owner@example.com', 'owner-password', '192.0.2.1'));
    clock.advance(wait * 1000 + 1);
    must(await login(w, 'owner@example.com', 'owner-password', '192.0.2.1'));
  });

  it('concurrent guesses count when they start: 20 at once get 5 derivations and 15 answers of 429', async () => {
    const { w, derivations } = await countingWorld();
    derivations.length = 0;
    const results = await Promise.all(Array.from({ length: 20 }, () => login(w, 'owner@example.com', 'guess', '203.0.113.9')));
    const codes = results.map((r) => (r.isErr() ? r.error.code : 'success'));
    expect(codes.filter((c) => c === 'AUTHENTICATION_FAILED')).toHaveLength(5);
    expect(codes.filter((c) => c === 'RATE_LIMIT_HIT')).toHaveLength(15);
    expect(derivations).toHaveLength(5);
  });

  it('without a client address (in-process callers) the per-email limit applies as in the reference', async () => {
    const { w } = await countingWorld();
    for (let i = 0; i < 5; i++) expectError(await login(w, 'owner@example.com', 'guess'), ...AUTH_FAILED);
    expectRateLimited(await login(w, 'owner@example.com', 'owner-password'));
  });
});

describe('bounded concurrency of password derivations', () => {
  it('runs a bounded number at once, queues a bounded number, and answers the rest 429 at once', async () => {
    const started: Array<() => void> = [];
    let running = 0;
    let most = 0;
    const scrypt: ScryptFn = async (password, salt, cost) => {
      running++;
      most = Math.max(most, running);
      await new Promise<void>((resolve) => started.push(resolve));
      running--;
      return nodeScrypt(password, salt, cost);
    };
    const w = await makeWorld({ config: { passwordHashConcurrency: 2, passwordHashMaxWaiting: 3 } });
    // Installed after the owner's password was hashed, so that only logins wait on it.
    w.ctx.passwords.scrypt = scrypt;
    const pending = Array.from({ length: 5 }, (_, i) => login(w, `user${i}@example.com`, 'guess', `192.0.2.${i}`));
    // Each login reads the store before it derives: wait until all five have reached the slots.
    for (let i = 0; i < 400 && !w.ctx.passwords.slots.saturated; i++) await new Promise((resolve) => setTimeout(resolve, 5));
    // Two run, three wait: the sixth login is answered at once, before any derivation ends.
    expect(w.ctx.passwords.slots.saturated).toBe(true);
    expect(started).toHaveLength(2);
    expectRateLimited(await login(w, 'owner@example.com', 'owner-password', '192.0.2.99'));
    let settled = 0;
    for (const login of pending) void login.then(() => settled++);
    // Lets the derivations go one by one until every queued login has been answered.
    for (let i = 0; i < 2000 && settled < pending.length; i++) {
      started.shift()?.();
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    for (const result of await Promise.all(pending)) expectError(result, ...AUTH_FAILED);
    expect(most).toBe(2);
  });
});

describe('other anonymous paths to a derivation', () => {
  it('POST /invites/accept derives nothing for a key that names no invitation', async () => {
    const { w, derivations } = await countingWorld();
    derivations.length = 0;
    const result = await doAcceptInvite(w.ctx, w.as(null), { key: 'k'.repeat(24), full_name: 'Guess Er', password: 'new-password' });
    expectError(result, 'BAD_REQUEST', 'No such invitation', 404);
    expect(derivations).toEqual([]);
  });
});

describe('old_password of PATCH /settings', () => {
  const change = (w: World, old_password: string, clientIp: string) =>
    doUpdateSettings(w.ctx, { realm: w.realm, user: w.owner, clientIp }, { old_password, new_password: 'brand-new-password' });

  it('counts against the login limits, with the reference message; another address is unaffected', async () => {
    const { w, derivations } = await countingWorld();
    for (let i = 0; i < 5; i++) expectError(await change(w, 'guess', '203.0.113.9'), 'BAD_REQUEST', 'Wrong password!');
    derivations.length = 0;
    expectError(await change(w, 'owner-password', '203.0.113.9'), 'BAD_REQUEST', "You're making too many attempts! Try again in 1800 seconds.");
    expect(derivations).toEqual([]);
    // Login guesses and old_password guesses share the limit for the email at that address.
    expectRateLimited(await login(w, 'owner@example.com', 'owner-password', '203.0.113.9'));
    must(await change(w, 'owner-password', '192.0.2.50'));
    must(await login(w, 'owner@example.com', 'brand-new-password', '192.0.2.50'));
  });

  it('refuses an overlong old_password without deriving', async () => {
    const { w, derivations } = await countingWorld();
    derivations.length = 0;
    expectError(await change(w, 'x'.repeat(100_000), '192.0.2.1'), 'BAD_REQUEST', 'Wrong password!');
    expect(derivations).toEqual([]);
  });
});
