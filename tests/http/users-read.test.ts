/** GET /users, GET /users/me, GET /users/{user_id}, GET /users/{email} over HTTP. */
import { createUserAsOperator, updateRealmAsOperator } from '@teamchat/core';
import { afterEach, describe, expect, it } from 'vitest';
import { makeWorld, must } from '../helpers/core.js';
import { authOf, basicAuth, call, closeServers, expectError, expectSuccess, rawRequest, startServer } from '../helpers/http.js';

afterEach(closeServers);

const USER_FIELDS = [
  'user_id',
  'email',
  'delivery_email',
  'full_name',
  'avatar_url',
  'avatar_version',
  'date_joined',
  'timezone',
  'role',
  'is_active',
  'is_admin',
  'is_owner',
  'is_guest',
  'is_bot',
  'bot_type',
  'is_imported_stub',
].sort();

describe('GET /users', () => {
  it('lists the members with the fields of API.md 2.2', async () => {
    const server = await startServer();
    const { owner } = server.world;
    const member = await server.world.addUser({ email: 'member@example.com', fullName: 'Mia Member' });
    const body = expectSuccess(await call(server, 'GET', '/users', { auth: owner }));
    expect(body.members.map((m: { user_id: number }) => m.user_id)).toEqual([owner.id, member.id]);
    const [first] = body.members;
    expect(Object.keys(first).sort()).toEqual(USER_FIELDS);
    expect(first).toMatchObject({
      user_id: owner.id,
      email: 'owner@example.com',
      delivery_email: 'owner@example.com',
      full_name: 'Olivia Owner',
      avatar_url: null,
      role: 100,
      is_owner: true,
      is_admin: true,
      is_guest: false,
      is_bot: false,
      bot_type: null,
      is_active: true,
      timezone: '',
    });
    expect(first.date_joined).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}\+00:00$/);
    expect(body.members[1]).toMatchObject({ full_name: 'Mia Member', role: 400, is_admin: false });
  });

  it('decodes JSON form values: user_ids, client_gravatar, include_custom_profile_fields', async () => {
    const server = await startServer();
    const { owner } = server.world;
    const member = await server.world.addUser({ email: 'member@example.com' });
    await server.world.addUser({ email: 'third@example.com' });
    const query = { user_ids: `[${member.id},${owner.id}]`, client_gravatar: 'false', include_custom_profile_fields: 'true' };
    const body = expectSuccess(await call(server, 'GET', '/users', { auth: owner, query }));
    expect(body.members.map((m: { user_id: number }) => m.user_id).sort()).toEqual([owner.id, member.id].sort());
    for (const m of body.members) {
      expect(m.avatar_url).toMatch(/^https:\/\//);
      expect(m.profile_data).toEqual({});
    }
  });

  it('rejects bad values with the reference texts', async () => {
    const server = await startServer();
    const { owner } = server.world;
    const cases: [Record<string, string>, string][] = [
      [{ user_ids: '[1,"x"]' }, 'user_ids[1] is not an integer'],
      [{ user_ids: '[1,2' }, 'user_ids is not valid JSON'],
      [{ user_ids: '5' }, 'user_ids is not a list'],
      [{ user_ids: '[999]' }, 'Invalid user ID: 999'],
      [{ client_gravatar: 'True' }, 'client_gravatar is not valid JSON'],
      [{ client_gravatar: '1' }, 'client_gravatar is not a boolean'],
      [{ include_custom_profile_fields: '"true"' }, 'include_custom_profile_fields is not a boolean'],
    ];
    for (const [query, msg] of cases) {
      expectError(await call(server, 'GET', '/users', { auth: owner, query }), 400, 'BAD_REQUEST', msg);
    }
  });

  it('needs authentication unless the realm has public access (FL 387)', async () => {
    const world = await makeWorld();
    const server = await startServer(world);
    expectError(
      await call(server, 'GET', '/users'),
      401,
      'UNAUTHORIZED',
      'Not logged in: API authentication or user session required',
    );
    must(await updateRealmAsOperator(world.ctx, world.realm, { webPublicAccessEnabled: true }));
    const body = expectSuccess(await call(server, 'GET', '/users'));
    expect(body.members).toHaveLength(1);
    expect(body.members[0].delivery_email).toBeNull();
    expect(body.members[0].avatar_url).not.toBeNull();
    // Credentials that fail are an error, not a fallback to spectator access.
    expectError(
      await call(server, 'GET', '/users', { auth: basicAuth('owner@example.com', 'Z'.repeat(32)) }),
      401,
      'UNAUTHORIZED',
      'Invalid API key',
    );
  });

  it('ignores a GET body: parameters of a GET come from the query string only', async () => {
    const server = await startServer();
    const response = await rawRequest(server, {
      method: 'GET',
      path: '/api/v1/users?include_custom_profile_fields=true',
      headers: { authorization: authOf(server.world.owner), 'content-type': 'application/x-www-form-urlencoded' },
      body: 'client_gravatar=false&user_ids=[999]',
    });
    const body = expectSuccess(response);
    expect(body.members[0].avatar_url).toBeNull();
    expect(body.members[0].profile_data).toEqual({});
    expect(body).not.toHaveProperty('ignored_parameters_unsupported');
  });
});

describe('GET /users/me', () => {
  it('returns the caller flat, with max_message_id', async () => {
    const server = await startServer();
    const { owner } = server.world;
    const body = expectSuccess(await call(server, 'GET', '/users/me', { auth: owner }));
    expect(body).toMatchObject({ user_id: owner.id, email: 'owner@example.com', role: 100, max_message_id: -1 });
    expect(body).not.toHaveProperty('user');
  });

  it('needs authentication', async () => {
    const server = await startServer();
    expectError(await call(server, 'GET', '/users/me'), 401, 'UNAUTHORIZED', /^Not logged in/);
  });
});

describe('GET /users/{user_id} and GET /users/{email}', () => {
  it('returns one user under `user`, by ID or by email', async () => {
    const server = await startServer();
    const { owner } = server.world;
    const member = await server.world.addUser({ email: 'member@example.com', fullName: 'Mia Member' });
    const byId = expectSuccess(await call(server, 'GET', `/users/${member.id}`, { auth: owner }));
    expect(byId.user).toMatchObject({ user_id: member.id, full_name: 'Mia Member', role: 400 });
    expect(Object.keys(byId.user).sort()).toEqual(USER_FIELDS);
    const byEmail = expectSuccess(await call(server, 'GET', '/users/member@example.com', { auth: member }));
    expect(byEmail.user).toEqual(byId.user);
    const encoded = expectSuccess(await call(server, 'GET', '/users/member%40example.com', { auth: member }));
    expect(encoded.user.user_id).toBe(member.id);
  });

  it('decodes client_gravatar and include_custom_profile_fields', async () => {
    const server = await startServer();
    const { owner } = server.world;
    const query = { client_gravatar: 'false', include_custom_profile_fields: 'true' };
    const body = expectSuccess(await call(server, 'GET', `/users/${owner.id}`, { auth: owner, query }));
    expect(body.user.avatar_url).toMatch(/^https:\/\//);
    expect(body.user.profile_data).toEqual({});
  });

  it('finds bots and deactivated users too', async () => {
    const world = await makeWorld();
    const bot = must(
      await createUserAsOperator(world.ctx, world.realm, { email: 'bot@example.com', fullName: 'Bot', bot: true, botOwnerId: world.owner.id }),
    );
    const member = await world.addUser({ email: 'member@example.com' });
    const server = await startServer(world);
    expectSuccess(await call(server, 'DELETE', `/users/${member.id}`, { auth: world.owner }));
    const botBody = expectSuccess(await call(server, 'GET', `/users/${bot.id}`, { auth: world.owner }));
    expect(botBody.user).toMatchObject({ is_bot: true, bot_type: 1, bot_owner_id: world.owner.id });
    const gone = expectSuccess(await call(server, 'GET', `/users/${member.id}`, { auth: world.owner }));
    expect(gone.user.is_active).toBe(false);
  });

  it('an unknown ID or email: 400 "No such user"', async () => {
    const server = await startServer();
    const auth = server.world.owner;
    for (const key of ['999', 'ghost@example.com', '99999999999999999999999', '0']) {
      expectError(await call(server, 'GET', `/users/${key}`, { auth }), 400, 'BAD_REQUEST', 'No such user');
    }
  });

  it('needs authentication', async () => {
    const server = await startServer();
    expectError(await call(server, 'GET', `/users/${server.world.owner.id}`), 401, 'UNAUTHORIZED', /^Not logged in/);
  });
});
