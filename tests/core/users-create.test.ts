/** POST /users (API.md 4.19, FACTS 6.5 and 8.2). */
import { changeUserAsOperator, doCreateUser, doDeactivateUser, doFetchApiKey, getUsers } from '@teamchat/core';
import { describe, expect, it } from 'vitest';
import { makeWorld, must } from '../helpers/core.js';
import { expectBadRequest, expectError, fakeClock, isoAt, reload, secondRealm, snapshot, T0 } from './fixtures.js';

const input = (overrides: Record<string, unknown> = {}) => ({
  email: 'new.person@example.com',
  password: 'new-password',
  full_name: 'New Person',
  ...overrides,
});

describe('POST /users: success', () => {
  it('returns the new user_id and stores a member with the given details', async () => {
    const w = await makeWorld({ clock: fakeClock() });
    const created = must(await doCreateUser(w.ctx, w.as(w.owner), input()));
    expect(created).toEqual({ user_id: 2 });
    const user = await reload(w.ctx, { realmId: w.realm.id, id: created.user_id });
    expect(user).toMatchObject({
      deliveryEmail: 'new.person@example.com',
      fullName: 'New Person',
      role: 400,
      isActive: true,
      isBot: false,
      isImportedStub: false,
      canCreateUsers: false,
      canChangeUserEmails: false,
      dateJoined: isoAt(T0),
    });
    expect(user.apiKey).toMatch(/^[A-Za-z0-9]{32}$/);
    expect(user.apiKey).not.toBe(w.owner.apiKey);
  });

  it('shows the new user in GET /users', async () => {
    const w = await makeWorld();
    const { user_id } = must(await doCreateUser(w.ctx, w.as(w.owner), input()));
    const { members } = must(await getUsers(w.ctx, w.as(w.owner), { user_ids: [user_id] }));
    expect(members).toEqual([
      expect.objectContaining({ user_id, email: 'new.person@example.com', full_name: 'New Person', role: 400, is_active: true }),
    ]);
  });

  it('sets the password, so the new user can log in', async () => {
    const w = await makeWorld();
    const { user_id } = must(await doCreateUser(w.ctx, w.as(w.owner), input()));
    const login = must(await doFetchApiKey(w.ctx, w.as(null), { username: 'new.person@example.com', password: 'new-password' }));
    expect(login).toMatchObject({ user_id, email: 'new.person@example.com' });
  });

  it('strips the name and the email', async () => {
    const w = await makeWorld();
    const { user_id } = must(await doCreateUser(w.ctx, w.as(w.owner), input({ full_name: '  Spaced Name  ', email: ' spaced@example.com ' })));
    expect(await reload(w.ctx, { realmId: w.realm.id, id: user_id })).toMatchObject({
      fullName: 'Spaced Name',
      deliveryEmail: 'spaced@example.com',
    });
  });

  it('lets an administrator with can_create_users create users', async () => {
    const w = await makeWorld();
    const admin = await w.addUser({ email: 'admin@example.com', fullName: 'Ada Admin', role: 200, canCreateUsers: true });
    expect(must(await doCreateUser(w.ctx, w.as(admin), input()))).toEqual({ user_id: 3 });
  });

  it('allows an address used in another realm', async () => {
    const w = await makeWorld();
    const other = await secondRealm(w.ctx);
    must(await doCreateUser(w.ctx, w.as(w.owner), input({ email: 'boss@other.example.net' })));
    expect(other.owner.deliveryEmail).toBe('boss@other.example.net');
  });
});

describe('POST /users: permissions', () => {
  for (const [role, label] of [
    [300, 'moderator'],
    [400, 'member'],
    [600, 'guest'],
  ] as const) {
    it(`refuses a ${label} (UNAUTHORIZED_PRINCIPAL, HTTP 400), even with can_create_users`, async () => {
      const w = await makeWorld();
      const caller = await w.addUser({ email: `${label}@example.com`, fullName: `Some ${label}`, role, canCreateUsers: true });
      const before = await snapshot(w.ctx, w.realm);
      expectError(await doCreateUser(w.ctx, w.as(caller), input()), 'UNAUTHORIZED_PRINCIPAL', 'Must be an organization administrator');
      expect(await snapshot(w.ctx, w.realm)).toEqual(before);
    });
  }

  it('refuses an administrator without can_create_users', async () => {
    const w = await makeWorld();
    const admin = await w.addUser({ email: 'admin@example.com', fullName: 'Ada Admin', role: 200 });
    expectBadRequest(await doCreateUser(w.ctx, w.as(admin), input()), 'User not authorized to create users');
  });

  it('refuses an owner without can_create_users', async () => {
    const w = await makeWorld();
    const owner = must(await changeUserAsOperator(w.ctx, w.realm, 'owner@example.com', { canCreateUsers: false }));
    expectBadRequest(await doCreateUser(w.ctx, w.as(owner), input()), 'User not authorized to create users');
  });

  it('checks permissions before the input', async () => {
    const w = await makeWorld();
    const member = await w.addUser({ email: 'member@example.com', fullName: 'Mel Member' });
    expectError(await doCreateUser(w.ctx, w.as(member), input({ email: 'bad' })), 'UNAUTHORIZED_PRINCIPAL', 'Must be an organization administrator');
  });

  it('is UNAUTHORIZED for spectators', async () => {
    const w = await makeWorld();
    expectError(await doCreateUser(w.ctx, w.as(null), input()), 'UNAUTHORIZED', 'Not logged in: API authentication or user session required', 401);
  });
});

describe('POST /users: bad input', () => {
  it('names the first missing parameter, in the reference order', async () => {
    const w = await makeWorld();
    const missing = (name: string) => ['REQUEST_VARIABLE_MISSING', `Missing '${name}' argument`, 400, { var_name: name }] as const;
    expectError(await doCreateUser.fromTransport(w.ctx, w.as(w.owner), {}), ...missing('email'));
    expectError(await doCreateUser.fromTransport(w.ctx, w.as(w.owner), { email: 'a@example.com' }), ...missing('password'));
    expectError(await doCreateUser.fromTransport(w.ctx, w.as(w.owner), { email: 'a@example.com', password: 'secret123' }), ...missing('full_name'));
  });

  it('rejects values that are not strings (in-process callers)', async () => {
    const w = await makeWorld();
    expectBadRequest(await doCreateUser(w.ctx, w.as(w.owner), input({ email: 5 })), 'email is not a string');
    expectBadRequest(await doCreateUser(w.ctx, w.as(w.owner), input({ full_name: null })), 'full_name is not a string');
  });

  it('rejects an address already in use, case-insensitively, including by deactivated users', async () => {
    const w = await makeWorld();
    const old = await w.addUser({ email: 'taken@example.com', fullName: 'Old Taker' });
    expectBadRequest(await doCreateUser(w.ctx, w.as(w.owner), input({ email: 'OWNER@example.com' })), "Email 'OWNER@example.com' already in use");
    must(await doDeactivateUser(w.ctx, w.as(w.owner), { user_id: old.id }));
    expectBadRequest(await doCreateUser(w.ctx, w.as(w.owner), input({ email: 'taken@example.com' })), "Email 'taken@example.com' already in use");
  });

  it('rejects malformed addresses', async () => {
    const w = await makeWorld();
    for (const email of ['not-an-email', 'a@', '@example.com', 'two@@example.com', 'sp ace@example.com', '']) {
      expectBadRequest(await doCreateUser(w.ctx, w.as(w.owner), input({ email })), 'Bad name or username');
    }
  });

  it('applies the reference’s name rules', async () => {
    const w = await makeWorld();
    const cases: [string, string][] = [
      ['', 'Name too short!'],
      ['   ', 'Name too short!'],
      ['A', 'Name too short!'],
      ['x'.repeat(101), 'Name too long!'],
      ['Bad*Name', 'Invalid characters in name!'],
      ['Back`tick', 'Invalid characters in name!'],
      ['At @home', 'Invalid characters in name!'],
      ['Quote"d', 'Invalid characters in name!'],
      ['Arrow>', 'Invalid characters in name!'],
      ['Back\\slash', 'Invalid characters in name!'],
      ['Tab\tName', 'Invalid characters in name!'],
      ['Zero\u200bWidth', 'Invalid characters in name!'],
      ['Name|15', 'Invalid format!'],
    ];
    for (const [full_name, msg] of cases) {
      expectBadRequest(await doCreateUser(w.ctx, w.as(w.owner), input({ full_name })), msg);
    }
    must(await doCreateUser(w.ctx, w.as(w.owner), input({ full_name: 'x'.repeat(100) })));
    must(await doCreateUser(w.ctx, w.as(w.owner), input({ email: 'b@example.com', full_name: 'Bo' })));
    must(await doCreateUser(w.ctx, w.as(w.owner), input({ email: 'c@example.com', full_name: 'Zoë | Ops' })));
  });

  it('checks the name before the address, as the reference does', async () => {
    const w = await makeWorld();
    expectBadRequest(await doCreateUser(w.ctx, w.as(w.owner), input({ full_name: 'A', email: 'bad' })), 'Name too short!');
  });

  it('rejects weak passwords', async () => {
    const w = await makeWorld();
    expectBadRequest(await doCreateUser(w.ctx, w.as(w.owner), input({ password: 'five5' })), 'The password is too weak.');
    expectBadRequest(await doCreateUser(w.ctx, w.as(w.owner), input({ password: 'p'.repeat(101) })), 'The password is too weak.');
    must(await doCreateUser(w.ctx, w.as(w.owner), input({ password: 'six666' })));
  });

  it('writes nothing when it fails', async () => {
    const w = await makeWorld();
    const before = await snapshot(w.ctx, w.realm);
    for (const bad of [input({ email: 'owner@example.com' }), input({ full_name: 'A' }), input({ password: 'x' }), input({ email: 'bad' })]) {
      expect((await doCreateUser(w.ctx, w.as(w.owner), bad)).isErr()).toBe(true);
    }
    expect(await snapshot(w.ctx, w.realm)).toEqual(before);
  });
});
