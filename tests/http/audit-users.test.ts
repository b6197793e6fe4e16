/**
 * Acceptance audit of API.md 2.2, 4.4, 4.8, 4.14, 4.19 and the authorization rules of section 5
 * over HTTP: every stated rule, parameter and error, plus garbage input (unknown and other
 * realms' IDs, wrong types, too-low roles), which must always be a 4xx envelope.
 */
import { createRealm, createUserAsOperator, doSubscribe, type User } from '@teamchat/core';
import { afterEach, describe, expect, it } from 'vitest';
import { makeWorld, must, type World } from '../helpers/core.js';
import { call, callHost, closeServers, expectError, expectSuccess, form, startServer, type TestServer } from '../helpers/http.js';

afterEach(closeServers);

interface Cast {
  server: TestServer;
  world: World;
  owner: User;
  admin: User;
  moderator: User;
  member: User;
  guest: User;
  /** The owner of a second realm on the same server. */
  foreign: User;
}

async function cast(): Promise<Cast> {
  const world = await makeWorld();
  const admin = await world.addUser({ email: 'admin@example.com', fullName: 'Ada Admin', role: 200 });
  const moderator = await world.addUser({ email: 'mod@example.com', fullName: 'Mo Moderator', role: 300 });
  const member = await world.addUser({ email: 'member@example.com', fullName: 'Mia Member' });
  const guest = await world.addUser({ email: 'guest@example.com', fullName: 'Gus Guest', role: 600 });
  const { owner: foreign } = must(
    await createRealm(world.ctx, {
      name: 'Other Org',
      url: 'http://other.example.com',
      subdomain: 'other',
      owner: { email: 'boss@other.example.com', fullName: 'Bea Boss', password: 'boss-password' },
    }),
  );
  return { server: await startServer(world), world, owner: world.owner, admin, moderator, member, guest, foreign };
}

const ids = (members: { user_id: number }[]) => members.map((m) => m.user_id);

describe('2.2 user fields and 4.4 GET /users', () => {
  it('every role maps to role, is_owner, is_admin and is_guest', async () => {
    const { server, owner, admin, moderator, member, guest } = await cast();
    const body = expectSuccess(await call(server, 'GET', '/users', { auth: member }));
    const byId = new Map(body.members.map((m: { user_id: number }) => [m.user_id, m]));
    const expected: [User, number, boolean, boolean, boolean][] = [
      [owner, 100, true, true, false],
      [admin, 200, false, true, false],
      [moderator, 300, false, false, false],
      [member, 400, false, false, false],
      [guest, 600, false, false, true],
    ];
    for (const [user, role, isOwner, isAdmin, isGuest] of expected) {
      expect(byId.get(user.id)).toMatchObject({ role, is_owner: isOwner, is_admin: isAdmin, is_guest: isGuest, is_bot: false, bot_type: null });
      expect(byId.get(user.id)).not.toHaveProperty('bot_owner_id');
      expect(byId.get(user.id)).not.toHaveProperty('profile_data');
    }
  });

  it('bots carry bot_type and bot_owner_id, and no profile_data even when asked', async () => {
    const world = await makeWorld();
    const bot = must(
      await createUserAsOperator(world.ctx, world.realm, { email: 'bot@example.com', fullName: 'Botty', bot: true, botOwnerId: world.owner.id }),
    );
    const server = await startServer(world);
    const body = expectSuccess(await call(server, 'GET', '/users', { auth: world.owner, query: { include_custom_profile_fields: 'true' } }));
    const record = body.members.find((m: { user_id: number }) => m.user_id === bot.id);
    expect(record).toMatchObject({ is_bot: true, bot_owner_id: world.owner.id });
    expect(record.bot_type).toBeTypeOf('number');
    expect(record).not.toHaveProperty('profile_data');
    expect(body.members.find((m: { user_id: number }) => m.user_id === world.owner.id).profile_data).toEqual({});
  });

  it('profile_data is keyed by field ID string with value, and rendered_value for Markdown types', async () => {
    const { server, owner, member } = await cast();
    const text = expectSuccess(await call(server, 'POST', '/realm/profile_fields', { auth: owner, body: form({ name: 'Phone', field_type: '1' }) })).id;
    const date = expectSuccess(await call(server, 'POST', '/realm/profile_fields', { auth: owner, body: form({ name: 'Birthday', field_type: '4' }) })).id;
    const data = JSON.stringify([{ id: text, value: '*hi*' }, { id: date, value: '2000-01-02' }]);
    expectSuccess(await call(server, 'PATCH', `/users/${member.id}`, { auth: owner, body: form({ profile_data: data }) }));
    const body = expectSuccess(await call(server, 'GET', '/users', { auth: owner, query: { user_ids: `[${member.id}]`, include_custom_profile_fields: 'true' } }));
    expect(body.members[0].profile_data).toEqual({
      [String(text)]: { value: '*hi*', rendered_value: '<p><em>hi</em></p>' },
      [String(date)]: { value: '2000-01-02' },
    });
  });

  it('client_gravatar defaults to true: avatar_url null only for external-service avatars whose email everyone may see', async () => {
    const { server, owner, member } = await cast();
    expectSuccess(await call(server, 'PATCH', '/settings', { auth: member, body: form({ email_address_visibility: '4' }) }));
    const byDefault = expectSuccess(await call(server, 'GET', '/users', { auth: owner, query: { user_ids: `[${owner.id},${member.id}]` } }));
    const [ownRecord, hidden] = byDefault.members;
    expect(ownRecord.avatar_url).toBeNull();
    expect(hidden.avatar_url).toMatch(/^https:\/\//);
    // A hidden email means the API email is a dummy address, and delivery_email follows the visibility.
    expect(hidden.email).toBe(`user${member.id}@chat.example.com`);
    expect(hidden.delivery_email).toBeNull();
    const explicit = expectSuccess(await call(server, 'GET', '/users', { auth: owner, query: { client_gravatar: 'false' } }));
    for (const m of explicit.members) expect(m.avatar_url).toMatch(/^https:\/\//);
  });

  it('user_ids limits the result; [] lists nobody; deactivated users are included; other realms’ IDs are invalid', async () => {
    const { server, owner, member, guest, foreign } = await cast();
    expectSuccess(await call(server, 'DELETE', `/users/${guest.id}`, { auth: owner }));
    const some = expectSuccess(await call(server, 'GET', '/users', { auth: member, query: { user_ids: `[${guest.id},${owner.id}]` } }));
    expect(ids(some.members).sort()).toEqual([owner.id, guest.id].sort());
    expect(some.members.find((m: { user_id: number }) => m.user_id === guest.id).is_active).toBe(false);
    expect(expectSuccess(await call(server, 'GET', '/users', { auth: member, query: { user_ids: '[]' } })).members).toEqual([]);
    const all = expectSuccess(await call(server, 'GET', '/users', { auth: member }));
    expect(ids(all.members)).toContain(guest.id);
    expect(ids(all.members)).not.toContain(foreign.id);
    expectError(await call(server, 'GET', '/users', { auth: member, query: { user_ids: `[${foreign.id}]` } }), 400, 'BAD_REQUEST', `Invalid user ID: ${foreign.id}`);
    for (const bad of ['[-1]', '[1.5]', '[1e400]', '[true]', '[null]', '{"a":1}', '"1"', 'null']) {
      const response = await call(server, 'GET', '/users', { auth: member, query: { user_ids: bad } });
      expect(response.status, bad).toBe(400);
      expect(response.body.code, bad).toBe('BAD_REQUEST');
    }
  });

  it('unknown parameters are reported; the other realm’s credentials do not work here', async () => {
    const { server, member, foreign } = await cast();
    expect(expectSuccess(await call(server, 'GET', '/users', { auth: member, query: { zzz: '1', aaa: '2' } })).ignored_parameters_unsupported).toEqual(['aaa', 'zzz']);
    expectError(await call(server, 'GET', '/users', { auth: foreign }), 401, 'UNAUTHORIZED', /./);
  });
});

describe('4.8 PATCH /users/{user_id}', () => {
  it('administrators only: owners and admins may, moderators, members and guests get "Insufficient permission"', async () => {
    const { server, owner, admin, moderator, member, guest } = await cast();
    for (const requester of [moderator, member, guest]) {
      expectError(await call(server, 'PATCH', `/users/${member.id}`, { auth: requester, body: form({ full_name: 'Changed Name' }) }), 400, 'BAD_REQUEST', 'Insufficient permission');
    }
    expectSuccess(await call(server, 'PATCH', `/users/${member.id}`, { auth: admin, body: form({ full_name: 'By Admin' }) }));
    expectSuccess(await call(server, 'PATCH', `/users/${member.id}`, { auth: owner, body: form({ full_name: 'By Owner' }) }));
    const user = expectSuccess(await call(server, 'GET', `/users/${member.id}`, { auth: member })).user;
    expect(user.full_name).toBe('By Owner');
  });

  it('role takes every listed value; only owners add or remove the owner role; a guest cannot become an administrator', async () => {
    const { server, owner, admin, member, guest } = await cast();
    for (const role of [300, 600, 400, 200]) {
      expectSuccess(await call(server, 'PATCH', `/users/${member.id}`, { auth: admin, body: form({ role: String(role) }) }));
      expect(expectSuccess(await call(server, 'GET', `/users/${member.id}`, { auth: owner })).user.role).toBe(role);
    }
    expectError(await call(server, 'PATCH', `/users/${member.id}`, { auth: admin, body: form({ role: '100' }) }), 400, 'UNAUTHORIZED_PRINCIPAL', 'Must be an organization owner');
    expectSuccess(await call(server, 'PATCH', `/users/${member.id}`, { auth: owner, body: form({ role: '100' }) }));
    expectError(await call(server, 'PATCH', `/users/${member.id}`, { auth: admin, body: form({ role: '400' }) }), 400, 'UNAUTHORIZED_PRINCIPAL', 'Must be an organization owner');
    // Two owners now: either may lose the role, but not the last one.
    expectSuccess(await call(server, 'PATCH', `/users/${member.id}`, { auth: owner, body: form({ role: '400' }) }));
    expectError(
      await call(server, 'PATCH', `/users/${owner.id}`, { auth: owner, body: form({ role: '200' }) }),
      400,
      'BAD_REQUEST',
      'The owner permission cannot be removed from the only organization owner.',
    );
    expectError(await call(server, 'PATCH', `/users/${guest.id}`, { auth: owner, body: form({ role: '200' }) }), 400, 'BAD_REQUEST', /./);
    expect(expectSuccess(await call(server, 'GET', `/users/${guest.id}`, { auth: owner })).user.role).toBe(600);
  });

  it('role and profile_data values of the wrong type are 400s naming the parameter', async () => {
    const { server, owner, member } = await cast();
    const cases: [Record<string, string>, string][] = [
      [{ role: 'admin' }, 'role is not valid JSON'],
      [{ role: '"200"' }, 'role is not an integer'],
      [{ role: '250' }, 'Invalid role'],
      [{ role: '200.5' }, 'role is not an integer'],
      [{ profile_data: '{"id":1,"value":"x"}' }, 'profile_data is not a list'],
      [{ profile_data: '[1]' }, 'profile_data[0] is not a dict'],
      [{ profile_data: '[{"value":"x"}]' }, 'profile_data[0]["id"] field is missing'],
      [{ profile_data: '[{"id":"1","value":"x"}]' }, 'profile_data[0]["id"] is not an integer'],
      [{ profile_data: '[{"id":999,"value":"x"}]' }, 'Field id 999 not found.'],
    ];
    for (const [body, msg] of cases) {
      expectError(await call(server, 'PATCH', `/users/${member.id}`, { auth: owner, body: form(body) }), 400, 'BAD_REQUEST', msg);
    }
  });

  it('profile_data: null removes a value; Users fields take a list of user IDs', async () => {
    const { server, owner, member, admin } = await cast();
    const text = expectSuccess(await call(server, 'POST', '/realm/profile_fields', { auth: owner, body: form({ name: 'Team', field_type: '1' }) })).id;
    const people = expectSuccess(await call(server, 'POST', '/realm/profile_fields', { auth: owner, body: form({ name: 'Mentor', field_type: '6' }) })).id;
    const read = async () =>
      expectSuccess(await call(server, 'GET', `/users/${member.id}`, { auth: owner, query: { include_custom_profile_fields: 'true' } })).user.profile_data;
    expectSuccess(
      await call(server, 'PATCH', `/users/${member.id}`, { auth: owner, body: form({ profile_data: JSON.stringify([{ id: text, value: 'core' }, { id: people, value: [admin.id] }]) }) }),
    );
    expect(await read()).toMatchObject({ [String(text)]: { value: 'core' }, [String(people)]: { value: `[${admin.id}]` } });
    expectSuccess(await call(server, 'PATCH', `/users/${member.id}`, { auth: owner, body: form({ profile_data: JSON.stringify([{ id: text, value: null }]) }) }));
    expect(await read()).not.toHaveProperty(String(text));
  });

  it('new_email needs an owner with can_change_user_emails', async () => {
    const { server, admin, member, owner } = await cast();
    expectError(await call(server, 'PATCH', `/users/${member.id}`, { auth: admin, body: form({ new_email: 'n@example.com' }) }), 400, 'UNAUTHORIZED_PRINCIPAL', 'Must be an organization owner');
    const response = await call(server, 'PATCH', `/users/${member.id}`, { auth: owner, body: form({ new_email: 'n@example.com' }) });
    expect(response.status).toBe(400);
    expect(response.body.code).toBe('BAD_REQUEST');
  });

  it('unknown, other realms’ and malformed user IDs are 4xx envelopes', async () => {
    const { server, owner, foreign } = await cast();
    expectError(await call(server, 'PATCH', `/users/${foreign.id}`, { auth: owner, body: form({ full_name: 'Stolen Name' }) }), 400, 'BAD_REQUEST', 'No such user');
    expectError(await call(server, 'PATCH', '/users/424242', { auth: owner, body: form({ full_name: 'Nobody Here' }) }), 400, 'BAD_REQUEST', 'No such user');
    for (const path of ['/users/abc', '/users/-1', '/users/1.5', '/users/99999999999999999999999']) {
      const response = await call(server, 'PATCH', path, { auth: owner, body: form({ full_name: 'Nobody Here' }) });
      expect(response.status, path).toBeGreaterThanOrEqual(400);
      expect(response.status, path).toBeLessThan(500);
      expect(response.body.result).toBe('error');
    }
    expectError(await call(server, 'PATCH', `/users/${owner.id}`, { body: form({ full_name: 'Anon' }) }), 401, 'UNAUTHORIZED', /^Not logged in/);
    const foreignUser = expectSuccess(await callHost(server, 'other.example.com', 'GET', '/users/me', { auth: foreign }));
    expect(foreignUser.full_name).toBe('Bea Boss');
  });
});

describe('4.14 DELETE /users/{user_id}', () => {
  it('administrators only; an admin may not deactivate an owner; the only owner cannot be deactivated', async () => {
    const { server, owner, admin, moderator, member, guest, foreign } = await cast();
    for (const requester of [moderator, member, guest]) {
      expectError(await call(server, 'DELETE', `/users/${member.id === requester.id ? guest.id : member.id}`, { auth: requester }), 400, 'BAD_REQUEST', 'Insufficient permission');
    }
    expectError(await call(server, 'DELETE', `/users/${owner.id}`, { auth: admin }), 400, 'UNAUTHORIZED_PRINCIPAL', 'Must be an organization owner');
    expectError(await call(server, 'DELETE', `/users/${owner.id}`, { auth: owner }), 400, 'BAD_REQUEST', 'Cannot deactivate the only organization owner');
    expectError(await call(server, 'DELETE', `/users/${foreign.id}`, { auth: owner }), 400, 'BAD_REQUEST', 'No such user');
    expectSuccess(await call(server, 'DELETE', `/users/${member.id}`, { auth: admin }));
    expectError(await call(server, 'DELETE', `/users/${member.id}`, { auth: admin }), 400, 'BAD_REQUEST', 'User is deactivated');
    expectError(await call(server, 'GET', '/users/me', { auth: member }), 401, 'UNAUTHORIZED', 'Account is deactivated');
    // The other realm's owner is untouched.
    expect(expectSuccess(await callHost(server, 'other.example.com', 'GET', '/users/me', { auth: foreign })).is_active).toBe(true);
  });

  it('deactivates the user’s bots first; actions apply to the bots and then the user', async () => {
    const world = await makeWorld();
    const member = await world.addUser({ email: 'member@example.com', fullName: 'Mia Member' });
    const bot = must(await createUserAsOperator(world.ctx, world.realm, { email: 'mbot@example.com', fullName: 'Mia Bot', bot: true, botOwnerId: member.id }));
    must(await doSubscribe(world.ctx, world.as(world.owner), { subscriptions: [{"name":"general"}], principals: [world.owner.id,member.id,bot.id] }));
    const server = await startServer(world);
    const fromMember = expectSuccess(await call(server, 'POST', '/messages', { auth: member, body: form({ type: 'stream', to: 'general', topic: 't', content: 'mine' }) })).id;
    const fromBot = expectSuccess(await call(server, 'POST', '/messages', { auth: bot, body: form({ type: 'stream', to: 'general', topic: 't', content: 'bot' }) })).id;
    const kept = expectSuccess(await call(server, 'POST', '/messages', { auth: world.owner, body: form({ type: 'stream', to: 'general', topic: 't', content: 'kept' }) })).id;
    const queue = expectSuccess(await call(server, 'POST', '/register', { auth: world.owner, body: form({ event_types: '["realm_user","realm_bot","delete_message"]' }) })).queue_id;

    const actions = JSON.stringify({ delete_profile: true, delete_public_channel_messages: true });
    expectSuccess(await call(server, 'DELETE', `/users/${member.id}`, { auth: world.owner, body: form({ actions }) }));

    const users = expectSuccess(await call(server, 'GET', '/users', { auth: world.owner, query: { user_ids: `[${member.id},${bot.id}]` } })).members;
    for (const u of users) {
      expect(u.is_active).toBe(false);
      expect(u.full_name).not.toMatch(/Mia/);
    }
    const messages = expectSuccess(
      await call(server, 'GET', '/messages', { auth: world.owner, query: { anchor: 'oldest', num_before: '0', num_after: '10', narrow: '[]' } }),
    ).messages.map((m: { id: number }) => m.id);
    expect(messages).toContain(kept);
    expect(messages).not.toContain(fromMember);
    expect(messages).not.toContain(fromBot);

    const events = expectSuccess(await call(server, 'GET', '/events', { auth: world.owner, query: { queue_id: queue, last_event_id: '-1', dont_block: 'true' } })).events;
    const deactivations = events.filter((e: { type: string; person?: { is_active?: boolean } }) => e.type === 'realm_user' && e.person?.is_active === false);
    expect(deactivations.map((e: { person: { user_id: number } }) => e.person.user_id)).toEqual([bot.id, member.id]);
    expect(events.some((e: { type: string; op: string }) => e.type === 'realm_bot' && e.op === 'delete')).toBe(true);
  });

  it('deactivation_notification_comment: a string (even empty) sends an email; null or absent sends none', async () => {
    const world = await makeWorld();
    const a = await world.addUser({ email: 'a@example.com', fullName: 'Amy A' });
    const b = await world.addUser({ email: 'b@example.com', fullName: 'Bob B' });
    const c = await world.addUser({ email: 'c@example.com', fullName: 'Cat C' });
    const server = await startServer(world);
    expectSuccess(await call(server, 'DELETE', `/users/${a.id}`, { auth: world.owner, body: form({ deactivation_notification_comment: 'Bye now' }) }));
    expectSuccess(await call(server, 'DELETE', `/users/${b.id}`, { auth: world.owner, body: form({ deactivation_notification_comment: '' }) }));
    expectSuccess(await call(server, 'DELETE', `/users/${c.id}`, { auth: world.owner }));
    const mail = await world.ctx.storage.read((tx) => tx.outbox.list(world.realm.id));
    const to = (address: string) => mail.filter((m) => m.to === address);
    expect(to('a@example.com')).toHaveLength(1);
    expect(to('a@example.com')[0]!.body).toContain('Bye now');
    expect(to('b@example.com')).toHaveLength(1);
    expect(to('c@example.com')).toHaveLength(0);
  });

  it('actions of the wrong shape are 400s', async () => {
    const { server, owner, member } = await cast();
    for (const actions of ['{"delete_profile":1}', '{"unknown":true}', '[]', 'true', '{']) {
      const response = await call(server, 'DELETE', `/users/${member.id}`, { auth: owner, body: form({ actions }) });
      expect(response.status, actions).toBe(400);
      expect(response.body.code, actions).toBe('BAD_REQUEST');
    }
    expect(expectSuccess(await call(server, 'GET', `/users/${member.id}`, { auth: owner })).user.is_active).toBe(true);
  });
});

describe('4.19 POST /users', () => {
  it('needs an administrator, then can_create_users; the email must be unused in this realm only', async () => {
    const { server, owner, admin, moderator, member, guest, foreign } = await cast();
    const body = (email: string) => form({ email, password: 'long-password', full_name: 'New Person' });
    for (const requester of [moderator, member, guest]) {
      expectError(await call(server, 'POST', '/users', { auth: requester, body: body('n1@example.com') }), 400, 'UNAUTHORIZED_PRINCIPAL', 'Must be an organization administrator');
    }
    expectError(await call(server, 'POST', '/users', { auth: admin, body: body('n1@example.com') }), 400, 'BAD_REQUEST', 'User not authorized to create users');
    // The realm's creator holds can_create_users.
    expectSuccess(await call(server, 'POST', '/users', { auth: owner, body: body('n1@example.com') }));
    expectError(await call(server, 'POST', '/users', { body: body('n1@example.com') }), 401, 'UNAUTHORIZED', /^Not logged in/);
    expect(foreign.deliveryEmail).toBe('boss@other.example.com');
  });

  it('with can_create_users: creates a member; an email in use here (any case) is BAD_REQUEST, one in another realm is fine', async () => {
    const { server, world, owner } = await cast();
    const creator = must(await createUserAsOperator(world.ctx, world.realm, { email: 'creator@example.com', fullName: 'Cry Creator', role: 200, canCreateUsers: true }));
    const body = (email: string) => form({ email, password: 'long-password', full_name: 'New Person' });
    const created = expectSuccess(await call(server, 'POST', '/users', { auth: creator, body: body('fresh@example.com') }));
    expect(created).toEqual({ result: 'success', msg: '', user_id: expect.any(Number) });
    expect(expectSuccess(await call(server, 'GET', `/users/${created.user_id}`, { auth: owner })).user).toMatchObject({ role: 400, is_active: true, full_name: 'New Person' });
    for (const email of ['fresh@example.com', 'MEMBER@example.com', 'owner@example.com']) {
      expectError(await call(server, 'POST', '/users', { auth: creator, body: body(email) }), 400, 'BAD_REQUEST', /already in use/);
    }
    expectSuccess(await call(server, 'POST', '/users', { auth: creator, body: body('boss@other.example.com') }));
    for (const missing of ['email', 'password', 'full_name']) {
      const values: Record<string, string> = { email: 'm@example.com', password: 'long-password', full_name: 'Mmm Mmm' };
      delete values[missing];
      expectError(await call(server, 'POST', '/users', { auth: creator, body: form(values) }), 400, 'REQUEST_VARIABLE_MISSING', `Missing '${missing}' argument`, { var_name: missing });
    }
    expectError(await call(server, 'POST', '/users', { auth: creator, body: form({ email: 'not-an-email', password: 'long-password', full_name: 'Mmm Mmm' }) }), 400, 'BAD_REQUEST', /./);
  });
});
