/** What only the operator does: realms, users without an acting user, special permissions; realm resolution. */
import {
  changeUserAsOperator,
  createRealm,
  createUserAsOperator,
  doFetchApiKey,
  findRealm,
  resolveRealm,
  updateRealmAsOperator,
} from '@teamchat/core';
import { createSqliteContext } from '@teamchat/core/sqlite';
import { describe, expect, it } from 'vitest';
import { makeWorld, must } from '../helpers/core.js';
import { expectBadRequest, expectError, fakeClock, isoAt, reload, secondRealm, snapshot, T0 } from './fixtures.js';

describe('createRealm', () => {
  it('stores the realm and its first owner', async () => {
    const ctx = createSqliteContext({ clock: fakeClock() });
    const { realm, owner } = must(
      await createRealm(ctx, {
        name: 'Acme',
        url: 'http://acme.example.com//',
        subdomain: 'acme',
        description: 'We make things',
        owner: { email: 'boss@acme.example.com', fullName: ' The Boss ', password: 'boss-password' },
      }),
    );
    expect(realm).toEqual({
      id: 1,
      subdomain: 'acme',
      name: 'Acme',
      description: 'We make things',
      url: 'http://acme.example.com',
      uuid: expect.stringMatching(/^[0-9a-f-]{36}$/),
      dateCreated: Math.floor(T0 / 1000),
      deactivated: false,
      webPublicAccessEnabled: false,
      emailAuthEnabled: true,
      defaultAvatarSource: 'G',
      // A new realm stores no setting: every one is at its default.
      settings: {},
      userSettingsDefaults: {},
    });
    expect(owner).toMatchObject({
      realmId: realm.id,
      deliveryEmail: 'boss@acme.example.com',
      fullName: 'The Boss',
      role: 100,
      isActive: true,
      isBot: false,
      canCreateUsers: true,
      canChangeUserEmails: false,
      awaitingFirstLogin: false,
      dateJoined: isoAt(T0),
    });
    expect(await findRealm(ctx, 'acme')).toEqual(realm);
    expect(await findRealm(ctx)).toBeUndefined();
  });

  it('lets the operator withhold or grant the special permissions', async () => {
    const ctx = createSqliteContext();
    const { owner } = must(
      await createRealm(ctx, {
        name: 'Acme',
        url: 'http://acme.example.com',
        owner: { email: 'boss@acme.example.com', fullName: 'The Boss', canCreateUsers: false, canChangeUserEmails: true },
      }),
    );
    expect(owner).toMatchObject({ canCreateUsers: false, canChangeUserEmails: true, passwordHash: null });
  });

  it('refuses a subdomain in use and writes nothing', async () => {
    const w = await makeWorld();
    const before = await w.ctx.storage.read((tx) => tx.realms.all());
    expectBadRequest(
      await createRealm(w.ctx, { name: 'Again', url: 'http://again.example.com', owner: { email: 'x@again.example.com', fullName: 'Xavier' } }),
      "Subdomain '' is already in use",
    );
    expect(await w.ctx.storage.read((tx) => tx.realms.all())).toEqual(before);
  });

  it('checks the first owner', async () => {
    const ctx = createSqliteContext();
    const realm = (owner: { email: string; fullName: string; password?: string }) =>
      createRealm(ctx, { name: 'Acme', url: 'http://acme.example.com', owner });
    expectBadRequest(await realm({ email: 'not-an-email', fullName: 'The Boss' }), "Invalid email address 'not-an-email'");
    expectBadRequest(await realm({ email: 'boss@acme.example.com', fullName: 'B' }), 'Name too short!');
    expectBadRequest(await realm({ email: 'boss@acme.example.com', fullName: 'The Boss', password: 'short' }), 'The password is too weak.');
    expect(await ctx.storage.read((tx) => tx.realms.all())).toEqual([]);
  });
});

describe('createUserAsOperator', () => {
  it('creates members by default, and any role on request', async () => {
    const w = await makeWorld();
    const member = must(await createUserAsOperator(w.ctx, w.realm, { email: 'member@example.com', fullName: 'Mel Member' }));
    expect(member).toMatchObject({ role: 400, isBot: false, botType: null, botOwnerId: null, passwordHash: null, awaitingFirstLogin: false });
    const guest = must(await createUserAsOperator(w.ctx, w.realm, { email: 'guest@example.com', fullName: 'Gus Guest', role: 600 }));
    expect(guest.role).toBe(600);
  });

  it('creates generic bots with an owner', async () => {
    const w = await makeWorld();
    const bot = must(await createUserAsOperator(w.ctx, w.realm, { email: 'bot@example.com', fullName: 'Some Bot', bot: true, botOwnerId: w.owner.id }));
    expect(bot).toMatchObject({ isBot: true, botType: 1, botOwnerId: w.owner.id });
  });

  it('sets a usable password when given one', async () => {
    const w = await makeWorld();
    const user = must(await createUserAsOperator(w.ctx, w.realm, { email: 'pw@example.com', fullName: 'Pat Word', password: 'pat-password' }));
    expect(must(await doFetchApiKey(w.ctx, w.as(null), { username: 'pw@example.com', password: 'pat-password' })).user_id).toBe(user.id);
  });

  it('refuses a taken address and bad input, writing nothing', async () => {
    const w = await makeWorld();
    const before = await snapshot(w.ctx, w.realm);
    expectBadRequest(await createUserAsOperator(w.ctx, w.realm, { email: 'Owner@Example.com', fullName: 'Copy Cat' }), "Email 'Owner@Example.com' already in use");
    expectBadRequest(await createUserAsOperator(w.ctx, w.realm, { email: 'bad', fullName: 'Bad Mail' }), "Invalid email address 'bad'");
    expectBadRequest(await createUserAsOperator(w.ctx, w.realm, { email: 'ok@example.com', fullName: 'x'.repeat(101) }), 'Name too long!');
    expect(await snapshot(w.ctx, w.realm)).toEqual(before);
  });
});

describe('changeUserAsOperator', () => {
  it('changes role, password and special permissions, found by email case-insensitively', async () => {
    const w = await makeWorld();
    const member = await w.addUser({ email: 'member@example.com', fullName: 'Mel Member' });
    const changed = must(
      await changeUserAsOperator(w.ctx, w.realm, 'MEMBER@example.com', {
        role: 200,
        password: 'fresh-password',
        canCreateUsers: true,
        canChangeUserEmails: true,
      }),
    );
    expect(changed).toMatchObject({ id: member.id, role: 200, canCreateUsers: true, canChangeUserEmails: true });
    expect(await reload(w.ctx, member)).toEqual(changed);
    expect(must(await doFetchApiKey(w.ctx, w.as(null), { username: 'member@example.com', password: 'fresh-password' })).user_id).toBe(member.id);
  });

  it('refuses an unknown role, a weak password and an unknown user', async () => {
    const w = await makeWorld();
    expectBadRequest(await changeUserAsOperator(w.ctx, w.realm, 'owner@example.com', { role: 250 as never }), 'Invalid role');
    expectBadRequest(await changeUserAsOperator(w.ctx, w.realm, 'owner@example.com', { password: 'x' }), 'The password is too weak.');
    expectBadRequest(await changeUserAsOperator(w.ctx, w.realm, 'nobody@example.com', { role: 400 }), "No user with email 'nobody@example.com'");
  });

  it('keeps an active owner: the only owner cannot lose the role, one of two can', async () => {
    const w = await makeWorld();
    expectBadRequest(await changeUserAsOperator(w.ctx, w.realm, 'owner@example.com', { role: 200 }), 'The owner permission cannot be removed from the only organization owner.');
    must(await createUserAsOperator(w.ctx, w.realm, { email: 'second@example.com', fullName: 'Second Owner', role: 100 }));
    expect(must(await changeUserAsOperator(w.ctx, w.realm, 'owner@example.com', { role: 200 })).role).toBe(200);
    expect(must(await changeUserAsOperator(w.ctx, w.realm, 'second@example.com', { password: 'fresh-password-1' })).role).toBe(100);
  });

  it('stays inside the realm', async () => {
    const w = await makeWorld();
    await secondRealm(w.ctx);
    expectBadRequest(await changeUserAsOperator(w.ctx, w.realm, 'boss@other.example.net', { role: 400 }), "No user with email 'boss@other.example.net'");
  });
});

describe('updateRealmAsOperator', () => {
  it('stores and returns the changed realm', async () => {
    const w = await makeWorld();
    const realm = must(await updateRealmAsOperator(w.ctx, w.realm, { name: 'New Name', webPublicAccessEnabled: true, defaultAvatarSource: 'J' }));
    expect(realm).toEqual({ ...w.realm, name: 'New Name', webPublicAccessEnabled: true, defaultAvatarSource: 'J' });
    expect(await findRealm(w.ctx, '')).toEqual(realm);
  });

  it('gives new users the realm’s default avatar source', async () => {
    const w = await makeWorld();
    const realm = must(await updateRealmAsOperator(w.ctx, w.realm, { defaultAvatarSource: 'J' }));
    const user = must(await createUserAsOperator(w.ctx, realm, { email: 'new@example.com', fullName: 'New User' }));
    expect(user.avatarSource).toBe('J');
  });
});

describe('resolveRealm', () => {
  it('matches the realm URL’s host, then the first label as subdomain, then the default realm', async () => {
    const w = await makeWorld();
    const other = await secondRealm(w.ctx);
    const resolve = async (host: string | null) => must(await resolveRealm(w.ctx, host)).id;
    expect(await resolve('chat.example.com')).toBe(w.realm.id);
    expect(await resolve('CHAT.Example.com')).toBe(w.realm.id);
    expect(await resolve('other.example.net')).toBe(other.realm.id);
    expect(await resolve('other.teamchat.test')).toBe(other.realm.id);
    expect(await resolve('unknown.example.org')).toBe(w.realm.id);
    expect(await resolve(null)).toBe(w.realm.id);
  });

  it('matches hosts with ports exactly', async () => {
    const w = await makeWorld({ realmUrl: 'http://127.0.0.1:9991' });
    expect(must(await resolveRealm(w.ctx, '127.0.0.1:9991')).id).toBe(w.realm.id);
  });

  it('is NONEXISTENT_SUBDOMAIN (HTTP 404) when nothing matches and there is no default realm', async () => {
    const w = await makeWorld({ subdomain: 'only', config: { defaultRealmSubdomain: 'missing' } });
    expectError(await resolveRealm(w.ctx, 'elsewhere.example.org'), 'NONEXISTENT_SUBDOMAIN', 'Invalid subdomain', 404);
    expect(must(await resolveRealm(w.ctx, 'only.example.org')).id).toBe(w.realm.id);
  });
});
