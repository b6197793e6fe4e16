/** User groups over HTTP: create, list, members through the real server, JSON in form values, errors, events. */
import { afterEach, describe, expect, it } from 'vitest';
import { makeWorld } from '../helpers/core.js';
import { call, closeServers, expectError, expectSuccess, form, startServer } from '../helpers/http.js';

afterEach(closeServers);

describe('user groups over HTTP', () => {
  it('creates, lists and changes members; queues get user_group events; errors keep the reference texts', async () => {
    const world = await makeWorld();
    const member = await world.addUser({ email: 'mel@example.com', fullName: 'Mel Member' });
    const guest = await world.addUser({ email: 'gus@example.com', fullName: 'Gus Guest', role: 600 });
    const server = await startServer(world);
    const queue = expectSuccess(await call(server, 'POST', '/register', { auth: guest, body: form({ event_types: '["user_group"]' }) })).queue_id;
    const created = expectSuccess(await call(server, 'POST', '/user_groups/create', { auth: member, body: form({ name: 'backend', description: 'Backend', members: `[${member.id}]` }) }));
    expect(Object.keys(created).sort()).toEqual(['group_id', 'msg', 'result']);
    expectSuccess(await call(server, 'POST', `/user_groups/${created.group_id}/members`, { auth: member, body: form({ add: `[${guest.id}]`, delete: `[${member.id}]` }) }));
    const { user_groups } = expectSuccess(await call(server, 'GET', '/user_groups', { auth: guest }));
    expect(user_groups.filter((g: { id: number }) => g.id > 8).map((g: { id: number; members: number[] }) => [g.id, g.members])).toEqual([[created.group_id, [guest.id]]]);
    const events = expectSuccess(await call(server, 'GET', '/events', { auth: guest, query: { queue_id: queue, dont_block: 'true' } })).events;
    expect(events.map((e: { op: string }) => e.op)).toEqual(['add', 'add_members', 'remove_members']);

    expectError(await call(server, 'POST', '/user_groups/create', { auth: guest, body: form({ name: 'x', description: '', members: '[]' }) }), 400, 'BAD_REQUEST', 'Insufficient permission');
    expectError(await call(server, 'POST', '/user_groups/create', { auth: member, body: form({ name: 'BACKEND', description: '', members: '[]' }) }), 400, 'BAD_REQUEST', "User group 'BACKEND' already exists.");
    expectError(await call(server, 'POST', '/user_groups/create', { auth: member, body: form({ name: 'x', description: '', members: '{' }) }), 400, 'BAD_REQUEST', 'members is not valid JSON');
    expectError(await call(server, 'POST', '/user_groups/9999/members', { auth: member, body: form({ add: '[]', delete: `[${guest.id}]` }) }), 400, 'BAD_REQUEST', 'Invalid user group');
    expectError(await call(server, 'GET', '/user_groups'), 401, 'UNAUTHORIZED', 'Not logged in: API authentication or user session required');
  });
});
