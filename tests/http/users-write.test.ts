/** POST /users, PATCH /users/{id}, DELETE /users/{id}, POST /users/{id}/reactivate over HTTP. */
import { changeUserAsOperator, createUserAsOperator, memoryMailer } from '@teamchat/core';
import { afterEach, describe, expect, it } from 'vitest';
import { makeWorld, must } from '../helpers/core.js';
import {
  basicAuth,
  call,
  closeServers,
  expectError,
  expectSuccess,
  form,
  multipart,
  startServer,
  type TestServer,
} from '../helpers/http.js';

afterEach(closeServers);

const getUser = async (server: TestServer, id: number) =>
  expectSuccess(await call(server, 'GET', `/users/${id}`, { auth: server.world.owner })).user;

describe('POST /users', () => {
  it('creates a member from a multipart body and returns user_id', async () => {
    const server = await startServer();
    const body = expectSuccess(
      await call(server, 'POST', '/users', {
        auth: server.world.owner,
        body: multipart({ email: 'new@example.com', password: 'new-password', full_name: '  New Person ' }),
      }),
    );
    expect(Object.keys(body).sort()).toEqual(['msg', 'result', 'user_id']);
    expect(await getUser(server, body.user_id)).toMatchObject({
      email: 'new@example.com',
      full_name: 'New Person',
      role: 400,
      is_active: true,
    });
    const login = expectSuccess(
      await call(server, 'POST', '/fetch_api_key', { body: form({ username: 'new@example.com', password: 'new-password' }) }),
    );
    expect(login.user_id).toBe(body.user_id);
  });

  it('reports errors with their codes and statuses', async () => {
    const world = await makeWorld();
    const member = await world.addUser({ email: 'member@example.com' });
    const admin = await world.addUser({ email: 'admin@example.com', role: 200 });
    const server = await startServer(world);
    const valid = { email: 'x@example.com', password: 'x-password', full_name: 'Xavier X' };

    expectError(await call(server, 'POST', '/users', { body: form(valid) }), 401, 'UNAUTHORIZED', /^Not logged in/);
    expectError(
      await call(server, 'POST', '/users', { auth: member, body: form(valid) }),
      400,
      'UNAUTHORIZED_PRINCIPAL',
      'Must be an organization administrator',
    );
    expectError(
      await call(server, 'POST', '/users', { auth: admin, body: form(valid) }),
      400,
      'BAD_REQUEST',
      'User not authorized to create users',
    );
    const owner = world.owner;
    expectError(
      await call(server, 'POST', '/users', { auth: owner, body: form({ password: 'x-password', full_name: 'Xavier X' }) }),
      400,
      'REQUEST_VARIABLE_MISSING',
      "Missing 'email' argument",
      { var_name: 'email' },
    );
    expectError(
      await call(server, 'POST', '/users', { auth: owner, body: form({ email: 'x@example.com', password: 'x-password' }) }),
      400,
      'REQUEST_VARIABLE_MISSING',
      "Missing 'full_name' argument",
      { var_name: 'full_name' },
    );
    expectError(
      await call(server, 'POST', '/users', { auth: owner, body: form({ ...valid, email: 'member@example.com' }) }),
      400,
      'BAD_REQUEST',
      "Email 'member@example.com' already in use",
    );
    expectError(await call(server, 'POST', '/users', { auth: owner, body: form({ ...valid, email: 'nope' }) }), 400, 'BAD_REQUEST', 'Bad name or username');
    expectError(await call(server, 'POST', '/users', { auth: owner, body: form({ ...valid, password: 'abc' }) }), 400, 'BAD_REQUEST', 'The password is too weak.');
    expectError(await call(server, 'POST', '/users', { auth: owner, body: form({ ...valid, full_name: ' ' }) }), 400, 'BAD_REQUEST', 'Name too short!');
    expectError(await call(server, 'POST', '/users', { auth: owner, body: form({ ...valid, full_name: 'x'.repeat(101) }) }), 400, 'BAD_REQUEST', 'Name too long!');
  });

  it('lets an administrator with can_create_users create users', async () => {
    const world = await makeWorld();
    const admin = await world.addUser({ email: 'admin@example.com', role: 200 });
    must(await changeUserAsOperator(world.ctx, world.realm, 'admin@example.com', { canCreateUsers: true }));
    const server = await startServer(world);
    const body = { email: 'y@example.com', password: 'y-password', full_name: 'Yara Y' };
    expectSuccess(await call(server, 'POST', '/users', { auth: admin, body: form(body) }));
  });
});

describe('PATCH /users/{user_id}', () => {
  it('changes full_name and role from a urlencoded body (role as JSON)', async () => {
    const server = await startServer();
    const member = await server.world.addUser({ email: 'member@example.com' });
    const response = await call(server, 'PATCH', `/users/${member.id}`, {
      auth: server.world.owner,
      body: form({ full_name: 'Renamed', role: '200' }),
    });
    expect(expectSuccess(response)).toEqual({ result: 'success', msg: '' });
    expect(await getUser(server, member.id)).toMatchObject({ full_name: 'Renamed', role: 200, is_admin: true });
  });

  it('reads parameters from the query string, and the body wins over the query', async () => {
    const server = await startServer();
    const member = await server.world.addUser({ email: 'member@example.com' });
    const auth = server.world.owner;
    expectSuccess(await call(server, 'PATCH', `/users/${member.id}`, { auth, query: { full_name: 'From Query', role: '300' } }));
    expect(await getUser(server, member.id)).toMatchObject({ full_name: 'From Query', role: 300 });
    expectSuccess(
      await call(server, 'PATCH', `/users/${member.id}`, {
        auth,
        query: { full_name: 'Query Loses', role: '600' },
        body: multipart({ full_name: 'Body Wins' }),
      }),
    );
    expect(await getUser(server, member.id)).toMatchObject({ full_name: 'Body Wins', role: 600 });
  });

  it('rejects invalid role values with the reference texts', async () => {
    const server = await startServer();
    const member = await server.world.addUser({ email: 'member@example.com' });
    const auth = server.world.owner;
    const cases: [string, string][] = [
      ['admin', 'role is not valid JSON'],
      ['"200"', 'role is not an integer'],
      ['2.5', 'role is not an integer'],
      ['250', 'Invalid role'],
      ['[200]', 'role is not an integer'],
    ];
    for (const [role, msg] of cases) {
      expectError(await call(server, 'PATCH', `/users/${member.id}`, { auth, body: form({ role }) }), 400, 'BAD_REQUEST', msg);
    }
  });

  it('enforces the role rules', async () => {
    const world = await makeWorld();
    const admin = await world.addUser({ email: 'admin@example.com', role: 200 });
    const member = await world.addUser({ email: 'member@example.com' });
    const guest = await world.addUser({ email: 'guest@example.com', role: 600 });
    const server = await startServer(world);
    const owner = world.owner;
    expectError(
      await call(server, 'PATCH', `/users/${guest.id}`, { auth: owner, body: form({ role: '200' }) }),
      400,
      'BAD_REQUEST',
      'Guests cannot be organization administrators',
    );
    expectError(
      await call(server, 'PATCH', `/users/${member.id}`, { auth: member, body: form({ full_name: 'Me' }) }),
      400,
      'BAD_REQUEST',
      'Insufficient permission',
    );
    expectError(
      await call(server, 'PATCH', `/users/${member.id}`, { auth: admin, body: form({ role: '100' }) }),
      400,
      'UNAUTHORIZED_PRINCIPAL',
      'Must be an organization owner',
    );
    expectError(
      await call(server, 'PATCH', `/users/${owner.id}`, { auth: owner, body: form({ role: '200' }) }),
      400,
      'BAD_REQUEST',
      'The owner permission cannot be removed from the only organization owner.',
    );
    expectSuccess(await call(server, 'PATCH', `/users/${member.id}`, { auth: admin, body: form({ role: '300' }) }));
    expectSuccess(await call(server, 'PATCH', `/users/${member.id}`, { auth: owner, body: form({ role: '100' }) }));
    expect(await getUser(server, member.id)).toMatchObject({ role: 100, is_owner: true });
  });

  it('validates profile_data as a JSON list of objects', async () => {
    const server = await startServer();
    const member = await server.world.addUser({ email: 'member@example.com' });
    const auth = server.world.owner;
    const cases: [string, string][] = [
      ['{', 'profile_data is not valid JSON'],
      ['{"id":1}', 'profile_data is not a list'],
      ['[{"id":"x","value":"a"}]', 'profile_data[0]["id"] is not an integer'],
      ['[{"id":1,"value":"a"}]', 'Field id 1 not found.'],
    ];
    for (const [profile_data, msg] of cases) {
      expectError(await call(server, 'PATCH', `/users/${member.id}`, { auth, body: form({ profile_data }) }), 400, 'BAD_REQUEST', msg);
    }
    expectSuccess(await call(server, 'PATCH', `/users/${member.id}`, { auth, body: form({ profile_data: '[]' }) }));
  });

  it('changes the email only for an owner with can_change_user_emails', async () => {
    const world = await makeWorld();
    const admin = await world.addUser({ email: 'admin@example.com', role: 200 });
    const member = await world.addUser({ email: 'member@example.com', password: 'member-password' });
    const server = await startServer(world);
    expectError(
      await call(server, 'PATCH', `/users/${member.id}`, { auth: admin, body: form({ new_email: 'moved@example.com' }) }),
      400,
      'UNAUTHORIZED_PRINCIPAL',
      'Must be an organization owner',
    );
    expectError(
      await call(server, 'PATCH', `/users/${member.id}`, { auth: world.owner, body: form({ new_email: 'moved@example.com' }) }),
      400,
      'BAD_REQUEST',
      'User not authorized to change user emails',
    );
    must(await changeUserAsOperator(world.ctx, world.realm, 'owner@example.com', { canChangeUserEmails: true }));
    expectError(
      await call(server, 'PATCH', `/users/${member.id}`, { auth: world.owner, body: form({ new_email: 'admin@example.com' }) }),
      400,
      'BAD_REQUEST',
      "Email 'admin@example.com' already in use",
    );
    expectSuccess(await call(server, 'PATCH', `/users/${member.id}`, { auth: world.owner, body: form({ new_email: 'moved@example.com' }) }));
    expect(await getUser(server, member.id)).toMatchObject({ delivery_email: 'moved@example.com' });
    expectSuccess(await call(server, 'GET', '/users/me', { auth: basicAuth('moved@example.com', member.apiKey) }));
    expectError(await call(server, 'GET', '/users/me', { auth: member }), 401, 'UNAUTHORIZED', 'Invalid API key');
  });

  it('an unknown user: 400 "No such user"; unauthenticated: 401', async () => {
    const server = await startServer();
    expectError(
      await call(server, 'PATCH', '/users/999', { auth: server.world.owner, body: form({ full_name: 'Xavier X' }) }),
      400,
      'BAD_REQUEST',
      'No such user',
    );
    expectError(await call(server, 'PATCH', `/users/${server.world.owner.id}`, { body: form({ full_name: 'Xavier X' }) }), 401, 'UNAUTHORIZED', /^Not logged in/);
  });
});

describe('DELETE /users/{user_id}', () => {
  it('deactivates the user; they can no longer authenticate', async () => {
    const server = await startServer();
    const member = await server.world.addUser({ email: 'member@example.com' });
    const body = expectSuccess(await call(server, 'DELETE', `/users/${member.id}`, { auth: server.world.owner }));
    expect(body).toEqual({ result: 'success', msg: '' });
    expect((await getUser(server, member.id)).is_active).toBe(false);
    expectError(await call(server, 'GET', '/users/me', { auth: member }), 401, 'UNAUTHORIZED', 'Account is deactivated');
    expectError(
      await call(server, 'DELETE', `/users/${member.id}`, { auth: server.world.owner }),
      400,
      'BAD_REQUEST',
      'User is deactivated',
    );
  });

  it('reads actions (JSON) and the notification comment from the query string', async () => {
    const mailer = memoryMailer();
    const world = await makeWorld({ mailer });
    const member = await world.addUser({ email: 'member@example.com' });
    const server = await startServer(world);
    const query = { actions: '{"delete_profile":true}', deactivation_notification_comment: 'Bye now' };
    expectSuccess(await call(server, 'DELETE', `/users/${member.id}`, { auth: world.owner, query }));
    expect((await getUser(server, member.id)).full_name).toBe(`Deleted User ${member.id}`);
    expect(mailer.sent).toHaveLength(1);
    expect(mailer.sent[0]).toMatchObject({ to: 'member@example.com' });
    expect(mailer.sent[0]!.body).toContain('Bye now');
  });

  it('reads a urlencoded DELETE body', async () => {
    const server = await startServer();
    const member = await server.world.addUser({ email: 'member@example.com' });
    const body = form({ actions: '{"delete_profile":true}' });
    expectSuccess(await call(server, 'DELETE', `/users/${member.id}`, { auth: server.world.owner, body }));
    expect((await getUser(server, member.id)).full_name).toBe(`Deleted User ${member.id}`);
  });

  it('reports errors with their codes and statuses', async () => {
    const world = await makeWorld();
    const admin = await world.addUser({ email: 'admin@example.com', role: 200 });
    const member = await world.addUser({ email: 'member@example.com' });
    const bot = must(
      await createUserAsOperator(world.ctx, world.realm, { email: 'bot@example.com', fullName: 'Bot', bot: true, botOwnerId: world.owner.id }),
    );
    const server = await startServer(world);
    const owner = world.owner;
    expectError(await call(server, 'DELETE', `/users/${member.id}`), 401, 'UNAUTHORIZED', /^Not logged in/);
    expectError(await call(server, 'DELETE', `/users/${admin.id}`, { auth: member }), 400, 'BAD_REQUEST', 'Insufficient permission');
    expectError(
      await call(server, 'DELETE', `/users/${owner.id}`, { auth: admin }),
      400,
      'UNAUTHORIZED_PRINCIPAL',
      'Must be an organization owner',
    );
    expectError(
      await call(server, 'DELETE', `/users/${owner.id}`, { auth: owner }),
      400,
      'BAD_REQUEST',
      'Cannot deactivate the only organization owner',
    );
    expectError(await call(server, 'DELETE', '/users/999', { auth: owner }), 400, 'BAD_REQUEST', 'No such user');
    expectError(await call(server, 'DELETE', `/users/${bot.id}`, { auth: owner }), 400, 'BAD_REQUEST', 'No such user');
    expectError(
      await call(server, 'DELETE', `/users/${member.id}`, { auth: owner, query: { actions: 'nope' } }),
      400,
      'BAD_REQUEST',
      'actions is not valid JSON',
    );
    expectError(
      await call(server, 'DELETE', `/users/${member.id}`, { auth: owner, query: { actions: '[]' } }),
      400,
      'BAD_REQUEST',
      'actions is not a dict',
    );
    expectError(
      await call(server, 'DELETE', `/users/${member.id}`, { auth: owner, query: { deactivation_notification_comment: 'x'.repeat(2001) } }),
      400,
      'BAD_REQUEST',
      'deactivation_notification_comment is too long (limit: 2000 characters)',
    );
    expect((await getUser(server, member.id)).is_active).toBe(true);
  });
});

describe('POST /users/{user_id}/reactivate', () => {
  it('reactivates a deactivated user, who can authenticate again', async () => {
    const server = await startServer();
    const member = await server.world.addUser({ email: 'member@example.com' });
    const auth = server.world.owner;
    expectSuccess(await call(server, 'DELETE', `/users/${member.id}`, { auth }));
    const body = expectSuccess(await call(server, 'POST', `/users/${member.id}/reactivate`, { auth, body: multipart({}) }));
    expect(body).toEqual({ result: 'success', msg: '' });
    expectSuccess(await call(server, 'GET', '/users/me', { auth: member }));
  });

  it('reports errors with their codes and statuses', async () => {
    const server = await startServer();
    const member = await server.world.addUser({ email: 'member@example.com' });
    const other = await server.world.addUser({ email: 'other@example.com' });
    const owner = server.world.owner;
    expectError(await call(server, 'POST', `/users/${member.id}/reactivate`), 401, 'UNAUTHORIZED', /^Not logged in/);
    expectError(await call(server, 'POST', `/users/${member.id}/reactivate`, { auth: owner }), 400, 'BAD_REQUEST', 'User is already active.');
    expectError(await call(server, 'POST', '/users/999/reactivate', { auth: owner }), 400, 'BAD_REQUEST', 'No such user');
    expectSuccess(await call(server, 'DELETE', `/users/${member.id}`, { auth: owner }));
    expectError(await call(server, 'POST', `/users/${member.id}/reactivate`, { auth: other }), 400, 'BAD_REQUEST', 'Insufficient permission');
  });

  it('is POST only', async () => {
    const server = await startServer();
    const response = await call(server, 'GET', '/users/1/reactivate', { auth: server.world.owner });
    expect(response.status).toBe(405);
    expect(response.body).toEqual({ result: 'error', msg: 'Method Not Allowed', allowed_methods: ['POST'] });
  });
});
