/** User status, muted users and read receipts over HTTP: routes, envelopes, statuses, events, register sections. */
import { doSubscribe, type User } from '@teamchat/core';
import { afterEach, describe, expect, it } from 'vitest';
import { makeWorld, must } from '../helpers/core.js';
import { call, closeServers, expectError, expectSuccess, form, type TestServer, startServer } from '../helpers/http.js';

afterEach(closeServers);

async function setup() {
  const world = await makeWorld({ config: { timers: false } });
  const admin = await world.addUser({ email: 'ada@example.com', fullName: 'Ada Admin', role: 200 });
  const member = await world.addUser({ email: 'mel@example.com', fullName: 'Mel Member' });
  const other = await world.addUser({ email: 'otto@example.com', fullName: 'Otto Other' });
  const bot = await world.addUser({ email: 'mel-bot@example.com', fullName: 'Mel Bot', bot: true, botOwnerId: member.id });
  const everyone = JSON.stringify([world.owner.id, admin.id, member.id, other.id]);
  must(await doSubscribe.fromTransport(world.ctx, world.as(world.owner), { subscriptions: '[{"name": "general"}]', principals: everyone }));
  const server = await startServer(world);
  return { server, world, admin, member, other, bot };
}

const queueOf = async (server: TestServer, user: User, types: string) =>
  expectSuccess(await call(server, 'POST', '/register', { auth: user, body: form({ event_types: types }) })).queue_id as string;
const eventsOf = async (server: TestServer, user: User, queue: string) =>
  expectSuccess(await call(server, 'GET', '/events', { auth: user, query: { queue_id: queue, dont_block: 'true' } })).events.map(
    ({ id: _id, ...e }: { id: number }) => e,
  );
const snapshot = async (server: TestServer, user: User, types: string) =>
  expectSuccess(await call(server, 'POST', '/register', { auth: user, body: form({ fetch_event_types: types }) }));

describe('user status over HTTP', () => {
  it('POST /users/me/status, GET /users/{user_id}/status, the event and the register section', async () => {
    const { server, member, other } = await setup();
    const queue = await queueOf(server, other, '["user_status"]');
    const set = await call(server, 'POST', '/users/me/status', { auth: member, body: form({ status_text: ' on vacation ', emoji_name: 'car', away: 'true' }) });
    expect(expectSuccess(set)).toEqual({ result: 'success', msg: '' });
    expect(await eventsOf(server, other, queue)).toEqual([
      { type: 'user_status', user_id: member.id, away: true, status_text: 'on vacation', emoji_name: 'car', emoji_code: '1f697', reaction_type: 'unicode_emoji' },
    ]);
    const expected = { away: true, status_text: 'on vacation', emoji_name: 'car', emoji_code: '1f697', reaction_type: 'unicode_emoji' };
    expect(expectSuccess(await call(server, 'GET', `/users/${member.id}/status`, { auth: other })).status).toEqual(expected);
    expect((await snapshot(server, other, '["user_status"]')).user_status).toEqual({ [String(member.id)]: expected });
    expect(expectSuccess(await call(server, 'GET', `/users/${other.id}/status`, { auth: member })).status).toEqual({});
  });

  it('gives 4xx envelopes for bad input, unknown users, bots and missing credentials', async () => {
    const { server, member, bot } = await setup();
    const post = (body: Record<string, string>, auth: User | undefined = member) => call(server, 'POST', '/users/me/status', { auth, body: form(body) });
    expectError(await post({}), 400, 'BAD_REQUEST', 'Client did not pass any new values.');
    expectError(await post({ status_text: 'x'.repeat(61) }), 400, 'BAD_REQUEST', 'status_text is too long (limit: 60 characters)');
    expectError(await post({ status_text: 'x'.repeat(100_000) }), 400, 'BAD_REQUEST', 'status_text is too long (limit: 60 characters)');
    expectError(await post({ status_text: 'x', emoji_code: '1f4bb' }), 400, 'BAD_REQUEST', 'Client must pass emoji_name if they pass either emoji_code or reaction_type.');
    expectError(await post({ emoji_name: 'invalid' }), 400, 'BAD_REQUEST', "Emoji 'invalid' does not exist");
    expectError(await post({ away: 'sometimes' }), 400, 'BAD_REQUEST', 'away is not valid JSON');
    expectError(await post({ status_text: 'beep' }, bot), 400, 'BAD_REQUEST', 'This endpoint does not accept bot requests.');
    expectError(await call(server, 'POST', '/users/me/status', { body: form({ status_text: 'x' }) }), 401, 'UNAUTHORIZED', /API authentication/);
    expectError(await call(server, 'GET', `/users/${bot.id}/status`, { auth: member }), 400, 'BAD_REQUEST', 'No such user');
    expectError(await call(server, 'GET', '/users/424242/status', { auth: member }), 400, 'BAD_REQUEST', 'No such user');
    expectError(await call(server, 'GET', '/users/abc/status', { auth: member }), 400, 'BAD_REQUEST', 'user_id is not an integer');
    // /users/me/status takes only POST; it is not /users/{user_id}/status with "me".
    const wrongMethod = await call(server, 'GET', '/users/me/status', { auth: member });
    expect([wrongMethod.status, wrongMethod.body]).toEqual([405, { result: 'error', msg: 'Method Not Allowed', allowed_methods: ['POST'] }]);
  });

  it("POST /users/{user_id}/status: administrators only; `away` there is reported as ignored", async () => {
    const { server, admin, member, other } = await setup();
    const response = await call(server, 'POST', `/users/${member.id}/status`, { auth: admin, body: form({ status_text: 'out sick', away: 'true' }) });
    expect(expectSuccess(response)).toEqual({ result: 'success', msg: '', ignored_parameters_unsupported: ['away'] });
    expect(expectSuccess(await call(server, 'GET', `/users/${member.id}/status`, { auth: other })).status).toEqual({ status_text: 'out sick' });
    expectError(await call(server, 'POST', `/users/${member.id}/status`, { auth: other, body: form({ status_text: 'x' }) }), 400, 'BAD_REQUEST', 'Insufficient permission');
  });
});

describe('muted users over HTTP', () => {
  it('POST and DELETE /users/me/muted_users/{muted_user_id}, the events and the register section', async () => {
    const { server, member, other } = await setup();
    const queue = await queueOf(server, member, '["muted_users", "update_message_flags"]');
    const sent = expectSuccess(await call(server, 'POST', '/messages', { auth: other, body: form({ type: 'stream', to: 'general', topic: 'lunch', content: 'spam' }) })).id;
    expect(expectSuccess(await call(server, 'POST', `/users/me/muted_users/${other.id}`, { auth: member }))).toEqual({ result: 'success', msg: '' });
    const muted = (await snapshot(server, member, '["muted_users"]')).muted_users;
    expect(muted).toEqual([{ id: other.id, timestamp: expect.any(Number) }]);
    expectSuccess(await call(server, 'DELETE', `/users/me/muted_users/${other.id}`, { auth: member }));
    expect(await eventsOf(server, member, queue)).toEqual([
      { type: 'update_message_flags', op: 'add', operation: 'add', flag: 'read', messages: [sent], all: false },
      { type: 'muted_users', muted_users: muted },
      { type: 'muted_users', muted_users: [] },
    ]);
    expect((await snapshot(server, member, '["muted_users"]')).muted_users).toEqual([]);
  });

  it('gives the reference errors as 400 envelopes', async () => {
    const { server, member, other } = await setup();
    expectError(await call(server, 'POST', `/users/me/muted_users/${member.id}`, { auth: member }), 400, 'BAD_REQUEST', 'Cannot mute self');
    expectSuccess(await call(server, 'POST', `/users/me/muted_users/${other.id}`, { auth: member }));
    expectError(await call(server, 'POST', `/users/me/muted_users/${other.id}`, { auth: member }), 400, 'BAD_REQUEST', 'User already muted');
    expectError(await call(server, 'DELETE', `/users/me/muted_users/${member.id}`, { auth: other }), 400, 'BAD_REQUEST', 'User is not muted');
    expectError(await call(server, 'POST', '/users/me/muted_users/424242', { auth: member }), 400, 'BAD_REQUEST', 'No such user');
    expectError(await call(server, 'DELETE', '/users/me/muted_users/x1', { auth: member }), 400, 'BAD_REQUEST', 'muted_user_id is not an integer');
    expectError(await call(server, 'POST', `/users/me/muted_users/${other.id}`, {}), 401, 'UNAUTHORIZED', /API authentication/);
  });
});

describe('read receipts over HTTP', () => {
  it('GET /messages/{message_id}/read_receipts lists readers; off in the realm it is a 400', async () => {
    const { server, admin, member, other } = await setup();
    const sent = expectSuccess(await call(server, 'POST', '/messages', { auth: other, body: form({ type: 'stream', to: 'general', topic: 'lunch', content: 'hi' }) })).id;
    expectSuccess(await call(server, 'POST', '/messages/flags', { auth: member, body: form({ messages: JSON.stringify([sent]), op: 'add', flag: 'read' }) }));
    expect(expectSuccess(await call(server, 'GET', `/messages/${sent}/read_receipts`, { auth: admin }))).toEqual({ result: 'success', msg: '', user_ids: [member.id] });
    expectError(await call(server, 'GET', '/messages/424242/read_receipts', { auth: admin }), 400, 'BAD_REQUEST', 'Invalid message(s)');
    expectError(await call(server, 'GET', '/messages/abc/read_receipts', { auth: admin }), 400, 'BAD_REQUEST', 'message_id is not an integer');
    expectSuccess(await call(server, 'PATCH', '/realm', { auth: admin, body: form({ enable_read_receipts: 'false' }) }));
    expect((await snapshot(server, member, '["realm"]')).realm_enable_read_receipts).toBe(false);
    expectError(await call(server, 'GET', `/messages/${sent}/read_receipts`, { auth: admin }), 400, 'BAD_REQUEST', 'Read receipts are disabled in this organization.');
    expectError(await call(server, 'GET', `/messages/${sent}/read_receipts`, {}), 401, 'UNAUTHORIZED', /API authentication/);
  });
});
