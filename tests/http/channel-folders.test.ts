/**
 * Channel folders and the channel properties of this area over HTTP: the folder endpoints'
 * routes, statuses and envelopes, form-encoded values, and folder_id / message_retention_days /
 * topics_policy through POST /users/me/subscriptions and PATCH /streams/{id}.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { makeWorld } from '../helpers/core.js';
import { call, closeServers, expectError, expectSuccess, form, startServer } from '../helpers/http.js';

afterEach(closeServers);

async function setup() {
  const world = await makeWorld();
  const admin = await world.addUser({ email: 'ada@example.com', fullName: 'Ada Admin', role: 200 });
  const member = await world.addUser({ email: 'mel@example.com', fullName: 'Mel Member' });
  const server = await startServer(world);
  return { server, world, admin, member };
}

describe('channel folders over HTTP', () => {
  it('creates, lists, updates and reorders folders, with events to a registered member', async () => {
    const { server, admin, member } = await setup();
    const queue = expectSuccess(await call(server, 'POST', '/register', { auth: member, body: form({ event_types: '["channel_folder"]' }) })).queue_id;
    const a = expectSuccess(await call(server, 'POST', '/channel_folders/create', { auth: admin, body: form({ name: 'Frontend', description: 'UI' }) }));
    expect(a).toEqual({ result: 'success', msg: '', channel_folder_id: expect.any(Number) });
    const b = expectSuccess(await call(server, 'POST', '/channel_folders/create', { auth: admin, body: form({ name: 'Backend', description: '' }) }));
    expectSuccess(await call(server, 'PATCH', `/channel_folders/${b.channel_folder_id}`, { auth: admin, body: form({ name: 'Server', is_archived: 'true' }) }));
    expectSuccess(await call(server, 'PATCH', '/channel_folders', { auth: admin, body: form({ order: JSON.stringify([b.channel_folder_id, a.channel_folder_id]) }) }));

    expect(expectSuccess(await call(server, 'GET', '/channel_folders', { auth: member })).channel_folders.map((f: { name: string }) => f.name)).toEqual(['Frontend']);
    const all = expectSuccess(await call(server, 'GET', '/channel_folders', { auth: member, query: { include_archived: 'true' } })).channel_folders;
    expect(all.map((f: { name: string; is_archived: boolean; order: number }) => [f.name, f.is_archived, f.order])).toEqual([['Server', true, 0], ['Frontend', false, 1]]);

    const events = expectSuccess(await call(server, 'GET', '/events', { auth: member, query: { queue_id: queue, dont_block: 'true' } })).events;
    expect(events.map((e: { type: string; op: string }) => `${e.type}/${e.op}`)).toEqual([
      'channel_folder/add', 'channel_folder/add', 'channel_folder/update', 'channel_folder/update', 'channel_folder/reorder',
    ]);
    const registered = expectSuccess(await call(server, 'POST', '/register', { auth: member, body: form({ fetch_event_types: '["channel_folders"]' }) }));
    expect(registered.channel_folders).toEqual(all);
  });

  it('answers errors with the reference’s statuses and codes', async () => {
    const { server, admin, member } = await setup();
    expectError(await call(server, 'POST', '/channel_folders/create', { auth: member, body: form({ name: 'X', description: '' }) }), 400, 'UNAUTHORIZED_PRINCIPAL', 'Must be an organization administrator');
    expectError(await call(server, 'POST', '/channel_folders/create', { auth: admin, body: form({ name: 'X' }) }), 400, 'REQUEST_VARIABLE_MISSING', "Missing 'description' argument");
    expectError(await call(server, 'POST', '/channel_folders/create', {}), 401, 'UNAUTHORIZED', /Not logged in/);
    expectError(await call(server, 'PATCH', '/channel_folders/424242', { auth: admin, body: form({ name: 'Y' }) }), 400, 'BAD_REQUEST', 'Invalid channel folder ID');
    expectError(await call(server, 'PATCH', '/channel_folders/abc', { auth: admin, body: form({ name: 'Y' }) }), 400, 'BAD_REQUEST', 'channel_folder_id is not an integer');
    expectError(await call(server, 'PATCH', '/channel_folders', { auth: admin, body: form({ order: '[1' }) }), 400, 'BAD_REQUEST', 'order is not valid JSON');
    expectError(await call(server, 'PATCH', '/channel_folders', { auth: admin, body: form({ order: '[424242]' }) }), 400, 'BAD_REQUEST', 'Invalid order mapping.');
    expectError(await call(server, 'GET', '/channel_folders', {}), 401, 'UNAUTHORIZED', /Not logged in/);
    const deleted = await call(server, 'DELETE', '/channel_folders/1', { auth: admin });
    expect([deleted.status, deleted.body]).toEqual([405, { result: 'error', msg: 'Method Not Allowed', allowed_methods: ['PATCH'] }]);
  });
});

describe('channel properties over HTTP', () => {
  it('creates a channel in a folder with retention and a topics policy, then changes them', async () => {
    const { server, world, admin, member } = await setup();
    const folder = expectSuccess(await call(server, 'POST', '/channel_folders/create', { auth: admin, body: form({ name: 'Ops', description: '' }) })).channel_folder_id;
    expectSuccess(await call(server, 'POST', '/users/me/subscriptions', {
      auth: world.owner,
      body: form({
        subscriptions: JSON.stringify([{ name: 'alerts' }]),
        principals: JSON.stringify([member.id]),
        folder_id: String(folder),
        message_retention_days: '14',
        topics_policy: '"empty_topic_only"',
      }),
    }));
    const stream = expectSuccess(await call(server, 'GET', '/streams', { auth: member })).streams.find((s: { name: string }) => s.name === 'alerts');
    expect(stream).toMatchObject({ folder_id: folder, message_retention_days: 14, topics_policy: 'empty_topic_only' });

    expectError(
      await call(server, 'POST', '/messages', { auth: member, body: form({ type: 'stream', to: 'alerts', topic: 'disk', content: 'full' }) }),
      400, 'BAD_REQUEST', 'Only the general chat topic is allowed in this channel.',
    );
    expectSuccess(await call(server, 'POST', '/messages', { auth: member, body: form({ type: 'stream', to: 'alerts', topic: '', content: 'full' }) }));

    const path = `/streams/${stream.stream_id}`;
    expectError(await call(server, 'PATCH', path, { auth: admin, body: form({ message_retention_days: '1' }) }), 400, 'UNAUTHORIZED_PRINCIPAL', 'Must be an organization owner');
    expectError(await call(server, 'PATCH', path, { auth: world.owner, body: form({ message_retention_days: '0' }) }), 400, 'REQUEST_VARIABLE_INVALID', "Bad value for 'message_retention_days': 0", { var_name: 'message_retention_days', bad_value: 0 });
    expectSuccess(await call(server, 'PATCH', path, { auth: world.owner, body: form({ message_retention_days: 'unlimited', topics_policy: 'disable_empty_topic', folder_id: 'null' }) }));
    const after = expectSuccess(await call(server, 'GET', path, { auth: member })).stream;
    expect(after).toMatchObject({ folder_id: null, message_retention_days: -1, topics_policy: 'disable_empty_topic' });
    expectError(await call(server, 'PATCH', path, { auth: admin, body: form({ folder_id: '424242' }) }), 400, 'BAD_REQUEST', 'Invalid channel folder ID');
    expectError(await call(server, 'PATCH', path, { auth: admin, body: form({ topics_policy: 'sometimes' }) }), 400, 'BAD_REQUEST', 'Invalid topics_policy');
  });
});
