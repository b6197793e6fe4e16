/** PATCH /users/{user_id} (API.md 4.8, FACTS 6.5 and 8.2). */
import { httpStatus } from '@teamchat/http-adapter';
import { changeUserAsOperator, doDeactivateUser, doFetchApiKey, doUpdateUser, type Role } from '@teamchat/core';
import { describe, expect, it } from 'vitest';
import { makeWorld, must } from '../helpers/core.js';
import { expectBadRequest, expectError, reload, secondRealm, setUser, snapshot } from './fixtures.js';

async function world() {
  const w = await makeWorld();
  const admin = await w.addUser({ email: 'admin@example.com', fullName: 'Ada Admin', role: 200 });
  const moderator = await w.addUser({ email: 'mod@example.com', fullName: 'Mo Moderator', role: 300 });
  const member = await w.addUser({ email: 'member@example.com', fullName: 'Mel Member', role: 400 });
  const guest = await w.addUser({ email: 'guest@example.com', fullName: 'Gus Guest', role: 600 });
  return { w, admin, moderator, member, guest };
}

const ONLY_OWNER = 'The owner permission cannot be removed from the only organization owner.';

describe('PATCH /users/{id}: full_name', () => {
  it('renames the user and answers with an empty body', async () => {
    const { w, admin, member } = await world();
    expect(must(await doUpdateUser(w.ctx, w.as(admin), { user_id: member.id, full_name: '  Melanie Member ' }))).toEqual({});
    expect((await reload(w.ctx, member)).fullName).toBe('Melanie Member');
  });

  it('ignores a blank name and an unchanged name', async () => {
    const { w, admin, member } = await world();
    must(await doUpdateUser(w.ctx, w.as(admin), { user_id: member.id, full_name: '   ' }));
    must(await doUpdateUser(w.ctx, w.as(admin), { user_id: member.id, full_name: 'Mel Member' }));
    expect(await reload(w.ctx, member)).toEqual(member);
  });

  it('applies the name rules', async () => {
    const { w, admin, member } = await world();
    expectBadRequest(await doUpdateUser(w.ctx, w.as(admin), { user_id: member.id, full_name: 'x'.repeat(101) }), 'Name too long!');
    expectBadRequest(await doUpdateUser(w.ctx, w.as(admin), { user_id: member.id, full_name: 'M' }), 'Name too short!');
    expectBadRequest(await doUpdateUser(w.ctx, w.as(admin), { user_id: member.id, full_name: 'Mel*' }), 'Invalid characters in name!');
    expectBadRequest(await doUpdateUser(w.ctx, w.as(admin), { user_id: member.id, full_name: 'Mel|2' }), 'Invalid format!');
  });

  it('works on bots and on deactivated users', async () => {
    const { w, admin, member } = await world();
    const bot = await w.addUser({ email: 'bot@example.com', fullName: 'Some Bot', bot: true, botOwnerId: member.id });
    must(await doDeactivateUser(w.ctx, w.as(admin), { user_id: member.id }));
    must(await doUpdateUser(w.ctx, w.as(admin), { user_id: bot.id, full_name: 'Renamed Bot' }));
    must(await doUpdateUser(w.ctx, w.as(admin), { user_id: member.id, full_name: 'Gone Member' }));
    expect((await reload(w.ctx, bot)).fullName).toBe('Renamed Bot');
    expect((await reload(w.ctx, member)).fullName).toBe('Gone Member');
  });

  it('succeeds with nothing to change', async () => {
    const { w, admin, member } = await world();
    expect(must(await doUpdateUser(w.ctx, w.as(admin), { user_id: member.id }))).toEqual({});
  });
});

describe('PATCH /users/{id}: role', () => {
  it('lets an administrator move users between non-owner roles', async () => {
    const { w, admin, member, moderator } = await world();
    for (const role of [300, 600, 400, 200]) {
      must(await doUpdateUser(w.ctx, w.as(admin), { user_id: member.id, role: role }));
      expect((await reload(w.ctx, member)).role).toBe(role);
    }
    must(await doUpdateUser(w.ctx, w.as(admin), { user_id: moderator.id, role: 400 }));
    expect((await reload(w.ctx, moderator)).role).toBe(400);
  });

  it('lets only owners grant the owner role', async () => {
    const { w, admin, member } = await world();
    expectError(await doUpdateUser(w.ctx, w.as(admin), { user_id: member.id, role: 100 }), 'UNAUTHORIZED_PRINCIPAL', 'Must be an organization owner');
    expect((await reload(w.ctx, member)).role).toBe(400);
    must(await doUpdateUser(w.ctx, w.as(w.owner), { user_id: member.id, role: 100 }));
    expect((await reload(w.ctx, member)).role).toBe(100);
  });

  it('lets only owners remove the owner role', async () => {
    const { w, admin, member } = await world();
    must(await doUpdateUser(w.ctx, w.as(w.owner), { user_id: member.id, role: 100 }));
    expectError(await doUpdateUser(w.ctx, w.as(admin), { user_id: member.id, role: 400 }), 'UNAUTHORIZED_PRINCIPAL', 'Must be an organization owner');
    must(await doUpdateUser(w.ctx, w.as(w.owner), { user_id: member.id, role: 200 }));
    expect((await reload(w.ctx, member)).role).toBe(200);
  });

  it('accepts an unchanged role from an administrator, even the owner role', async () => {
    const { w, admin } = await world();
    expect(must(await doUpdateUser(w.ctx, w.as(admin), { user_id: w.owner.id, role: 100 }))).toEqual({});
  });

  it('never removes the owner role from the only owner', async () => {
    const { w } = await world();
    const before = await snapshot(w.ctx, w.realm);
    for (const role of [200, 300, 400, 600]) {
      expectBadRequest(await doUpdateUser(w.ctx, w.as(w.owner), { user_id: w.owner.id, role }), ONLY_OWNER);
    }
    expect(await snapshot(w.ctx, w.realm)).toEqual(before);
  });

  it('lets an owner step down when another owner remains', async () => {
    const { w, member } = await world();
    must(await doUpdateUser(w.ctx, w.as(w.owner), { user_id: member.id, role: 100 }));
    must(await doUpdateUser(w.ctx, w.as(w.owner), { user_id: w.owner.id, role: 200 }));
    expect((await reload(w.ctx, w.owner)).role).toBe(200);
    expectBadRequest(await doUpdateUser(w.ctx, w.as(await reload(w.ctx, member)), { user_id: member.id, role: 400 }), ONLY_OWNER);
  });

  it('does not count deactivated owners or bots as the remaining owner', async () => {
    const { w, member } = await world();
    must(await doUpdateUser(w.ctx, w.as(w.owner), { user_id: member.id, role: 100 }));
    must(await doDeactivateUser(w.ctx, w.as(w.owner), { user_id: member.id }));
    await w.addUser({ email: 'owner-bot@example.com', fullName: 'Owner Bot', bot: true, role: 100, botOwnerId: w.owner.id });
    expectBadRequest(await doUpdateUser(w.ctx, w.as(w.owner), { user_id: w.owner.id, role: 400 }), ONLY_OWNER);
  });

  it('lets the owner role be removed from a deactivated owner and from a bot (they are not the only owner)', async () => {
    const { w, member } = await world();
    must(await doUpdateUser(w.ctx, w.as(w.owner), { user_id: member.id, role: 100 }));
    must(await doDeactivateUser(w.ctx, w.as(w.owner), { user_id: member.id }));
    must(await doUpdateUser(w.ctx, w.as(w.owner), { user_id: member.id, role: 400 }));
    const bot = await w.addUser({ email: 'owner-bot@example.com', fullName: 'Owner Bot', bot: true, role: 100, botOwnerId: w.owner.id });
    must(await doUpdateUser(w.ctx, w.as(w.owner), { user_id: bot.id, role: 400 }));
    expect((await reload(w.ctx, bot)).role).toBe(400);
  });

  it('never makes a guest an administrator or owner (API.md 4.8)', async () => {
    const { w, admin, guest } = await world();
    for (const [caller, role] of [
      [admin, 200],
      [w.owner, 200],
      [w.owner, 100],
    ] as const) {
      expectBadRequest(await doUpdateUser(w.ctx, w.as(caller), { user_id: guest.id, role }), 'Guests cannot be organization administrators');
    }
    expect((await reload(w.ctx, guest)).role).toBe(600);
    must(await doUpdateUser(w.ctx, w.as(admin), { user_id: guest.id, role: 300 }));
    expect((await reload(w.ctx, guest)).role).toBe(300);
  });

  it('validates the role as JSON in form text', async () => {
    const { w, admin, member } = await world();
    const patch = (role: unknown) => doUpdateUser.fromTransport(w.ctx, w.as(admin), { user_id: member.id, role });
    expectBadRequest(await patch('abc'), 'role is not valid JSON');
    expectBadRequest(await patch(''), 'role is not valid JSON');
    expectBadRequest(await patch('"200"'), 'role is not an integer');
    expectBadRequest(await patch('2.5'), 'role is not an integer');
    expectBadRequest(await patch('true'), 'role is not an integer');
    expectBadRequest(await patch('250'), 'Invalid role');
    expectBadRequest(await patch(0), 'Invalid role');
    expect((await reload(w.ctx, member)).role).toBe(400);
  });
});

describe('PATCH /users/{id}: profile_data', () => {
  it('names an unknown field (no custom profile fields exist yet)', async () => {
    const { w, admin, member } = await world();
    expectBadRequest(await doUpdateUser(w.ctx, w.as(admin), { user_id: member.id, profile_data: [{"id":7,"value":"x"}] }), 'Field id 7 not found.');
    expectBadRequest(await doUpdateUser(w.ctx, w.as(admin), { user_id: member.id, profile_data: [{ id: 3, value: null }] }), 'Field id 3 not found.');
    expectBadRequest(await doUpdateUser(w.ctx, w.as(admin), { user_id: member.id, profile_data: [{ id: 4, value: [1, 2] }] }), 'Field id 4 not found.');
  });

  it('accepts an empty list', async () => {
    const { w, admin, member } = await world();
    expect(must(await doUpdateUser(w.ctx, w.as(admin), { user_id: member.id, profile_data: [] }))).toEqual({});
  });

  it('validates the shape of the list', async () => {
    const { w, admin, member } = await world();
    const patch = (profile_data: unknown) => doUpdateUser.fromTransport(w.ctx, w.as(admin), { user_id: member.id, profile_data });
    expectBadRequest(await patch('[{'), 'profile_data is not valid JSON');
    expectBadRequest(await patch('{"id": 1}'), 'profile_data is not a list');
    expectBadRequest(await patch('[5]'), 'profile_data[0] is not a dict');
    expectBadRequest(await patch('[{"id": "a", "value": "x"}]'), 'profile_data[0]["id"] is not an integer');
    expectBadRequest(await patch('[{"value": "x"}]'), 'profile_data[0]["id"] field is missing');
    expectBadRequest(await patch('[{"id": 1}]'), 'profile_data[0]["value"] field is missing');
    expectBadRequest(await patch('[{"id": 1, "value": "x", "extra": 1}]'), 'Argument "extra" at profile_data[0]["extra"] is unexpected');
    const wrongValue = await patch('[{"id": 1, "value": 5}]');
    expect(httpStatus(wrongValue._unsafeUnwrapErr())).toBe(400);
    expect(wrongValue._unsafeUnwrapErr().code).toBe('BAD_REQUEST');
    expect(wrongValue._unsafeUnwrapErr().msg).toContain('profile_data[0]["value"]');
  });
});

describe('PATCH /users/{id}: new_email', () => {
  async function ownerWhoMayChangeEmails() {
    const setup = await world();
    const owner = must(await changeUserAsOperator(setup.w.ctx, setup.w.realm, 'owner@example.com', { canChangeUserEmails: true }));
    return { ...setup, owner };
  }

  it('changes the delivery email for an owner with can_change_user_emails; the user logs in with it', async () => {
    const { w, owner, member } = await ownerWhoMayChangeEmails();
    await setUser(w.ctx, member, { passwordHash: (await reload(w.ctx, w.owner)).passwordHash });
    must(await doUpdateUser(w.ctx, w.as(owner), { user_id: member.id, new_email: ' mel@new.example.com ' }));
    expect((await reload(w.ctx, member)).deliveryEmail).toBe('mel@new.example.com');
    const login = must(await doFetchApiKey(w.ctx, w.as(null), { username: 'mel@new.example.com', password: 'owner-password' }));
    expect(login).toMatchObject({ user_id: member.id, email: 'mel@new.example.com' });
    expect((await doFetchApiKey(w.ctx, w.as(null), { username: 'member@example.com', password: 'owner-password' })).isErr()).toBe(true);
  });

  it('needs an owner', async () => {
    const { w, admin, member } = await world();
    const privileged = must(await changeUserAsOperator(w.ctx, w.realm, admin.deliveryEmail, { canChangeUserEmails: true }));
    expectError(
      await doUpdateUser(w.ctx, w.as(privileged), { user_id: member.id, new_email: 'mel@new.example.com' }),
      'UNAUTHORIZED_PRINCIPAL',
      'Must be an organization owner',
    );
  });

  it('needs the can_change_user_emails permission', async () => {
    const { w, member } = await world();
    expectBadRequest(await doUpdateUser(w.ctx, w.as(w.owner), { user_id: member.id, new_email: 'mel@new.example.com' }), 'User not authorized to change user emails');
    expect((await reload(w.ctx, member)).deliveryEmail).toBe('member@example.com');
  });

  it('is a no-op when the address is unchanged, whoever asks', async () => {
    const { w, admin, member } = await world();
    must(await doUpdateUser(w.ctx, w.as(admin), { user_id: member.id, new_email: 'member@example.com' }));
  });

  it('rejects malformed and taken addresses', async () => {
    const { w, owner, member } = await ownerWhoMayChangeEmails();
    expectBadRequest(await doUpdateUser(w.ctx, w.as(owner), { user_id: member.id, new_email: 'nope' }), 'Invalid address.');
    expectBadRequest(await doUpdateUser(w.ctx, w.as(owner), { user_id: member.id, new_email: 'ADMIN@example.com' }), "Email 'ADMIN@example.com' already in use");
  });

  it('allows an address used only in another realm', async () => {
    const { w, owner, member } = await ownerWhoMayChangeEmails();
    await secondRealm(w.ctx);
    must(await doUpdateUser(w.ctx, w.as(owner), { user_id: member.id, new_email: 'boss@other.example.net' }));
    expect((await reload(w.ctx, member)).deliveryEmail).toBe('boss@other.example.net');
  });
});

describe('PATCH /users/{id}: access', () => {
  for (const [role, label] of [
    [300, 'moderator'],
    [400, 'member'],
    [600, 'guest'],
  ] as const) {
    it(`refuses a ${label} with "Insufficient permission"`, async () => {
      const { w, admin } = await world();
      const caller = await w.addUser({ email: `caller-${label}@example.com`, fullName: `Caller ${label}`, role });
      expectBadRequest(await doUpdateUser(w.ctx, w.as(caller), { user_id: admin.id, full_name: 'Hacked Name' }), 'Insufficient permission');
      expectBadRequest(await doUpdateUser(w.ctx, w.as(caller), { user_id: caller.id, role: 100 }), 'Insufficient permission');
      expect((await reload(w.ctx, admin)).fullName).toBe('Ada Admin');
      expect((await reload(w.ctx, caller)).role).toBe(role);
    });
  }

  it('says "No such user" for unknown IDs and another realm’s users, before checking permission', async () => {
    const { w, admin, member } = await world();
    const other = await secondRealm(w.ctx);
    expectBadRequest(await doUpdateUser(w.ctx, w.as(admin), { user_id: 999, full_name: 'Nobody Here' }), 'No such user');
    expectBadRequest(await doUpdateUser(w.ctx, w.as(admin), { user_id: other.owner.id, full_name: 'Cross Realm' }), 'No such user');
    expectBadRequest(await doUpdateUser(w.ctx, w.as(member), { user_id: 999 }), 'No such user');
    expect((await reload(w.ctx, other.owner)).fullName).toBe('Other Boss');
  });

  it('is UNAUTHORIZED for spectators', async () => {
    const { w, member } = await world();
    expectError(await doUpdateUser(w.ctx, w.as(null), { user_id: member.id }), 'UNAUTHORIZED', 'Not logged in: API authentication or user session required', 401);
  });

  it('needs a numeric user_id', async () => {
    const { w, admin } = await world();
    expectError(await doUpdateUser.fromTransport(w.ctx, w.as(admin), { full_name: 'No Target' }), 'REQUEST_VARIABLE_MISSING', "Missing 'user_id' argument", 400, {
      var_name: 'user_id',
    });
    expectBadRequest(await doUpdateUser.fromTransport(w.ctx, w.as(admin), { user_id: 'abc' }), 'user_id is not an integer');
  });
});

describe('PATCH /users/{id}: all or nothing', () => {
  it('keeps the role when a later part of the request fails', async () => {
    const { w, member } = await world();
    const before = await snapshot(w.ctx, w.realm);
    const failing = [
      { role: 300, full_name: 'x'.repeat(101) },
      { role: 300, profile_data: [{ id: 1, value: 'x' }] },
      { role: 300, full_name: 'Valid Name', new_email: 'mel@new.example.com' },
    ];
    for (const extra of failing) {
      expect((await doUpdateUser(w.ctx, w.as(w.owner), { user_id: member.id, ...extra })).isErr()).toBe(true);
    }
    expect(await snapshot(w.ctx, w.realm)).toEqual(before);
  });

  it('applies every part of a successful request together', async () => {
    const { w, member } = await world();
    const owner = must(await changeUserAsOperator(w.ctx, w.realm, 'owner@example.com', { canChangeUserEmails: true }));
    must(await doUpdateUser(w.ctx, w.as(owner), { user_id: member.id, role: 300, full_name: 'Mel Moderator', new_email: 'mel@example.com' }));
    expect(await reload(w.ctx, member)).toMatchObject({ role: 300, fullName: 'Mel Moderator', deliveryEmail: 'mel@example.com' });
  });
});

describe('permission checks use the acting user as stored now', () => {
  it('an administrator demoted after authenticating can no longer update users', async () => {
    const { w, admin, member } = await world();
    const staleCaller = w.as(admin);
    await setUser(w.ctx, admin, { role: 400 });
    expectBadRequest(await doUpdateUser(w.ctx, staleCaller, { user_id: member.id, full_name: 'Renamed' }), 'Insufficient permission');
    expect((await reload(w.ctx, member)).fullName).toBe('Mel Member');
  });

  it('a user deactivated after authenticating can no longer act', async () => {
    const { w, admin, member } = await world();
    const staleCaller = w.as(admin);
    await setUser(w.ctx, admin, { isActive: false });
    expectError(await doDeactivateUser(w.ctx, staleCaller, { user_id: member.id }), 'UNAUTHORIZED', 'Account is deactivated', 401);
    expect((await reload(w.ctx, member)).isActive).toBe(true);
  });
});
