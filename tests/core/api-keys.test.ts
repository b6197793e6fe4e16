/**
 * POST /fetch_api_key, API key regeneration and Basic-auth key checks (API.md 2.2 FL 475, 5;
 * FACTS 3.2, 3.3).
 */
import {
  authenticateApiKey,
  createUserAsOperator,
  doCreateUser,
  doDeactivateUser,
  doFetchApiKey,
  doRegenerateApiKey,
  getUsers,
  type Realm,
  updateRealmAsOperator,
} from '@teamchat/core';
import { describe, expect, it } from 'vitest';
import { makeWorld, must, type World } from '../helpers/core.js';
import { expectBadRequest, expectError, fakeClock, isoAt, reload, secondRealm, setUser, T0 } from './fixtures.js';

const login = (w: World, username: unknown, password: unknown, realm: Realm = w.realm) =>
  doFetchApiKey.fromTransport(w.ctx, { realm, user: null }, { username, password });

const AUTH_FAILED = ['AUTHENTICATION_FAILED', 'Your username or password is incorrect', 401] as const;

describe('POST /fetch_api_key', () => {
  it('answers with exactly api_key, email and user_id', async () => {
    const w = await makeWorld();
    expect(must(await login(w, 'owner@example.com', 'owner-password'))).toEqual({
      api_key: w.owner.apiKey,
      email: 'owner@example.com',
      user_id: w.owner.id,
    });
  });

  it('matches the username case-insensitively and returns the stored delivery email', async () => {
    const w = await makeWorld();
    expect(must(await login(w, '  OWNER@Example.com ', 'owner-password'))).toMatchObject({ email: 'owner@example.com' });
  });

  it('returns the real address even when the API email is a dummy one', async () => {
    const w = await makeWorld();
    await setUser(w.ctx, w.owner, { emailAddressVisibility: 4 });
    expect(must(await login(w, 'owner@example.com', 'owner-password')).email).toBe('owner@example.com');
    expectError(await login(w, `user${w.owner.id}@chat.example.com`, 'owner-password'), ...AUTH_FAILED);
  });

  it('fails with AUTHENTICATION_FAILED (HTTP 401) for a wrong password, an unknown user, a passwordless user and a bot', async () => {
    const w = await makeWorld();
    await w.addUser({ email: 'nopass@example.com', fullName: 'No Password' });
    await w.addUser({ email: 'bot@example.com', fullName: 'Some Bot', bot: true, password: 'bot-password' });
    expectError(await login(w, 'owner@example.com', 'wrong-password'), ...AUTH_FAILED);
    expectError(await login(w, 'owner@example.com', ''), ...AUTH_FAILED);
    expectError(await login(w, 'nobody@example.com', 'owner-password'), ...AUTH_FAILED);
    expectError(await login(w, 'nopass@example.com', ''), ...AUTH_FAILED);
    expectError(await login(w, 'bot@example.com', 'bot-password'), ...AUTH_FAILED);
  });

  it('fails with USER_DEACTIVATED for a deactivated user, whatever the password (the reference order)', async () => {
    const w = await makeWorld();
    const member = await w.addUser({ email: 'member@example.com', fullName: 'Mel Member', password: 'member-password' });
    must(await doDeactivateUser(w.ctx, w.as(w.owner), { user_id: member.id }));
    expectError(await login(w, 'member@example.com', 'member-password'), 'USER_DEACTIVATED', 'Account is deactivated', 401);
    expectError(await login(w, 'member@example.com', 'wrong-password'), 'USER_DEACTIVATED', 'Account is deactivated', 401);
  });

  it('fails with REALM_DEACTIVATED in a deactivated organization', async () => {
    const w = await makeWorld();
    const realm = must(await updateRealmAsOperator(w.ctx, w.realm, { deactivated: true }));
    expectError(await login(w, 'owner@example.com', 'owner-password', realm), 'REALM_DEACTIVATED', 'This organization has been deactivated', 401);
  });

  it('fails with PASSWORD_AUTH_DISABLED when the organization turned password login off', async () => {
    const w = await makeWorld();
    const realm = must(await updateRealmAsOperator(w.ctx, w.realm, { emailAuthEnabled: false }));
    expectError(
      await login(w, 'owner@example.com', 'owner-password', realm),
      'PASSWORD_AUTH_DISABLED',
      'Password authentication is disabled in this organization',
      401,
    );
  });

  it('rejects a username that is not an email address (BAD_REQUEST)', async () => {
    const w = await makeWorld();
    expectBadRequest(await login(w, 'owner', 'owner-password'), 'Enter a valid email address.');
    expectBadRequest(await login(w, '', 'owner-password'), 'Enter a valid email address.');
  });

  it('names a missing parameter', async () => {
    const w = await makeWorld();
    expectError(await doFetchApiKey.fromTransport(w.ctx, w.as(null), { password: 'x' }), 'REQUEST_VARIABLE_MISSING', "Missing 'username' argument", 400, {
      var_name: 'username',
    });
    expectError(await doFetchApiKey.fromTransport(w.ctx, w.as(null), { username: 'owner@example.com' }), 'REQUEST_VARIABLE_MISSING', "Missing 'password' argument", 400, {
      var_name: 'password',
    });
  });

  it('logs into the requested realm only', async () => {
    const w = await makeWorld();
    const other = await secondRealm(w.ctx);
    expectError(await login(w, 'boss@other.example.net', 'other-password'), ...AUTH_FAILED);
    const twin = must(await createUserAsOperator(w.ctx, other.realm, { email: 'owner@example.com', fullName: 'Twin Owner', password: 'twin-password' }));
    expect(must(await login(w, 'owner@example.com', 'owner-password')).user_id).toBe(w.owner.id);
    expect(must(await login(w, 'owner@example.com', 'twin-password', other.realm)).user_id).toBe(twin.id);
    expectError(await login(w, 'owner@example.com', 'twin-password'), ...AUTH_FAILED);
  });

  it('ignores who calls it', async () => {
    const w = await makeWorld();
    const member = await w.addUser({ email: 'member@example.com', fullName: 'Mel Member' });
    expect(must(await doFetchApiKey(w.ctx, w.as(member), { username: 'owner@example.com', password: 'owner-password' })).user_id).toBe(w.owner.id);
  });
});

describe('date_joined of API-created users (FL 475)', () => {
  it('moves to the first login, then stays', async () => {
    const clock = fakeClock();
    const w = await makeWorld({ clock });
    const { user_id } = must(await doCreateUser(w.ctx, w.as(w.owner), { email: 'api@example.com', password: 'api-password', full_name: 'Api User' }));
    const user = { realmId: w.realm.id, id: user_id };
    expect(await reload(w.ctx, user)).toMatchObject({ dateJoined: isoAt(T0), awaitingFirstLogin: true, isImportedStub: false });

    clock.advance(60_000);
    expectError(await login(w, 'api@example.com', 'wrong-password'), ...AUTH_FAILED);
    expect((await reload(w.ctx, user)).dateJoined).toBe(isoAt(T0));

    clock.advance(3_600_000);
    must(await login(w, 'api@example.com', 'api-password'));
    const firstLogin = isoAt(T0 + 3_660_000);
    expect(await reload(w.ctx, user)).toMatchObject({ dateJoined: firstLogin, awaitingFirstLogin: false, isImportedStub: false });
    const { members } = must(await getUsers(w.ctx, w.as(w.owner), { user_ids: [user_id] }));
    expect(members).toEqual([expect.objectContaining({ date_joined: firstLogin, is_imported_stub: false })]);

    clock.advance(86_400_000);
    must(await login(w, 'api@example.com', 'api-password'));
    expect((await reload(w.ctx, user)).dateJoined).toBe(firstLogin);
  });

  it('does not move for users created by the operator', async () => {
    const clock = fakeClock();
    const w = await makeWorld({ clock });
    clock.advance(1000);
    must(await login(w, 'owner@example.com', 'owner-password'));
    expect((await reload(w.ctx, w.owner)).dateJoined).toBe(isoAt(T0));
  });
});

describe('API key regeneration', () => {
  it('returns a new 32-character key that replaces the old one', async () => {
    const w = await makeWorld();
    const { api_key } = must(await doRegenerateApiKey(w.ctx, w.as(w.owner), {}));
    expect(api_key).toMatch(/^[A-Za-z0-9]{32}$/);
    expect(api_key).not.toBe(w.owner.apiKey);
    expect((await reload(w.ctx, w.owner)).apiKey).toBe(api_key);
    expectError(await authenticateApiKey(w.ctx, w.realm, 'owner@example.com', w.owner.apiKey), 'UNAUTHORIZED', 'Invalid API key', 401);
    expect(must(await authenticateApiKey(w.ctx, w.realm, 'owner@example.com', api_key)).id).toBe(w.owner.id);
    expect(must(await login(w, 'owner@example.com', 'owner-password')).api_key).toBe(api_key);
  });

  it('uses the context’s randomness', async () => {
    const w = await makeWorld();
    w.ctx.randomBytes = (size) => Buffer.alloc(size, 0x41);
    const { api_key } = must(await doRegenerateApiKey(w.ctx, w.as(w.owner), {}));
    expect(api_key).toBe('QUFB'.repeat(8));
  });

  it('touches nobody else', async () => {
    const w = await makeWorld();
    const member = await w.addUser({ email: 'member@example.com', fullName: 'Mel Member' });
    must(await doRegenerateApiKey(w.ctx, w.as(w.owner), {}));
    expect(await reload(w.ctx, member)).toEqual(member);
  });

  it('does not accept bot requests', async () => {
    const w = await makeWorld();
    const bot = await w.addUser({ email: 'bot@example.com', fullName: 'Some Bot', bot: true, botOwnerId: w.owner.id });
    expectBadRequest(await doRegenerateApiKey(w.ctx, w.as(bot), {}), 'This endpoint does not accept bot requests.');
    expect((await reload(w.ctx, bot)).apiKey).toBe(bot.apiKey);
  });

  it('is UNAUTHORIZED for spectators', async () => {
    const w = await makeWorld();
    expectError(await doRegenerateApiKey(w.ctx, w.as(null), {}), 'UNAUTHORIZED', 'Not logged in: API authentication or user session required', 401);
  });
});

describe('authenticateApiKey (FACTS 3.2; every failure is UNAUTHORIZED, HTTP 401)', () => {
  const unauthorized = (msg: string) => ['UNAUTHORIZED', msg, 401] as const;

  it('returns the stored user for a delivery email and its key', async () => {
    const w = await makeWorld();
    expect(must(await authenticateApiKey(w.ctx, w.realm, 'owner@example.com', w.owner.apiKey))).toEqual(w.owner);
    expect(must(await authenticateApiKey(w.ctx, w.realm, ' OWNER@example.COM ', ` ${w.owner.apiKey} `)).id).toBe(w.owner.id);
  });

  it('says "Malformed API key" for keys that are not 32 letters and digits', async () => {
    const w = await makeWorld();
    for (const key of ['', 'short', 'a'.repeat(31), 'a'.repeat(33), `${'a'.repeat(31)}-`, `${'a'.repeat(31)}_`]) {
      expectError(await authenticateApiKey(w.ctx, w.realm, 'owner@example.com', key), ...unauthorized('Malformed API key'));
    }
  });

  it('says "Invalid API key" for a wrong key, a wrong email and a dummy API email', async () => {
    const w = await makeWorld();
    const member = await w.addUser({ email: 'member@example.com', fullName: 'Mel Member' });
    const other = await secondRealm(w.ctx);
    await setUser(w.ctx, w.owner, { emailAddressVisibility: 4 });
    const invalid = unauthorized('Invalid API key');
    expectError(await authenticateApiKey(w.ctx, w.realm, 'owner@example.com', 'A'.repeat(32)), ...invalid);
    expectError(await authenticateApiKey(w.ctx, w.realm, 'member@example.com', w.owner.apiKey), ...invalid);
    expectError(await authenticateApiKey(w.ctx, w.realm, 'owner@example.com', member.apiKey), ...invalid);
    expectError(await authenticateApiKey(w.ctx, w.realm, `user${w.owner.id}@chat.example.com`, w.owner.apiKey), ...invalid);
    expectError(await authenticateApiKey(w.ctx, w.realm, 'boss@other.example.net', 'C'.repeat(32)), ...invalid);
    // Valid credentials of another realm's user name the real cause, as the reference does.
    expectError(
      await authenticateApiKey(w.ctx, w.realm, 'boss@other.example.net', other.owner.apiKey),
      ...unauthorized('Account is not associated with this subdomain'),
    );
  });

  it('says "Account is deactivated" for a deactivated user with the right key', async () => {
    const w = await makeWorld();
    const member = await w.addUser({ email: 'member@example.com', fullName: 'Mel Member' });
    must(await doDeactivateUser(w.ctx, w.as(w.owner), { user_id: member.id }));
    expectError(await authenticateApiKey(w.ctx, w.realm, 'member@example.com', member.apiKey), ...unauthorized('Account is deactivated'));
    expectError(await authenticateApiKey(w.ctx, w.realm, 'member@example.com', 'B'.repeat(32)), ...unauthorized('Invalid API key'));
  });

  it('says "This organization has been deactivated" before checking the user', async () => {
    const w = await makeWorld();
    const member = await w.addUser({ email: 'member@example.com', fullName: 'Mel Member' });
    must(await doDeactivateUser(w.ctx, w.as(w.owner), { user_id: member.id }));
    const realm = must(await updateRealmAsOperator(w.ctx, w.realm, { deactivated: true }));
    const deactivated = unauthorized('This organization has been deactivated');
    expectError(await authenticateApiKey(w.ctx, realm, 'owner@example.com', w.owner.apiKey), ...deactivated);
    expectError(await authenticateApiKey(w.ctx, realm, 'member@example.com', member.apiKey), ...deactivated);
  });

  it('lets generic bots in and keeps incoming-webhook bots out', async () => {
    const w = await makeWorld();
    const bot = await w.addUser({ email: 'bot@example.com', fullName: 'Some Bot', bot: true, botOwnerId: w.owner.id });
    expect(must(await authenticateApiKey(w.ctx, w.realm, 'bot@example.com', bot.apiKey)).id).toBe(bot.id);
    await setUser(w.ctx, bot, { botType: 2 });
    expectError(await authenticateApiKey(w.ctx, w.realm, 'bot@example.com', bot.apiKey), ...unauthorized('This API is not available to incoming webhook bots.'));
  });
});

describe('POST /fetch_api_key: failed-login limit', () => {
  it('allows 5 failed logins per email in 30 minutes, then answers 429 with retry-after', async () => {
    const clock = fakeClock();
    const w = await makeWorld({ clock });
    const login = (password: string) => doFetchApiKey(w.ctx, w.as(null), { username: 'OWNER@example.com', password });
    for (let i = 0; i < 5; i++) expectError(await login('wrong'), 'AUTHENTICATION_FAILED', 'Your username or password is incorrect', 401);
    const limited = await login('owner-password');
    expectError(limited, 'RATE_LIMIT_HIT', 'API usage exceeded rate limit', 429, { 'retry-after': 1800 });
    clock.advance(1800 * 1000 + 1);
    expect(must(await login('owner-password'))).toMatchObject({ user_id: w.owner.id });
  });
});
