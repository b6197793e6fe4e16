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

  it('PATCH, subgroups, member reads and deactivation through the real server; CANNOT_DEACTIVATE_GROUP_IN_USE carries objections', async () => {
    const world = await makeWorld();
    const member = await world.addUser({ email: 'mel@example.com', fullName: 'Mel Member' });
    const server = await startServer(world);
    const create = async (name: string, extra: Record<string, string> = {}) =>
      expectSuccess(await call(server, 'POST', '/user_groups/create', { auth: member, body: form({ name, description: '', members: `[${member.id}]`, ...extra }) })).group_id as number;
    const sub = await create('sub');
    const top = await create('top', { subgroups: `[${sub}]`, can_join_group: '5' });
    expectSuccess(await call(server, 'PATCH', `/user_groups/${top}`, { auth: member, body: form({ description: 'Top', can_mention_group: JSON.stringify({ new: 3, old: 6 }) }) }));
    expectSuccess(await call(server, 'POST', `/user_groups/${top}/subgroups`, { auth: member, body: form({ add: '[2]' }) }));
    const groups = expectSuccess(await call(server, 'GET', '/user_groups', { auth: member })).user_groups;
    expect(groups.find((g: { id: number }) => g.id === top)).toMatchObject({ description: 'Top', can_mention_group: 3, can_join_group: 5, direct_subgroup_ids: [2, sub] });
    expect(expectSuccess(await call(server, 'GET', `/user_groups/${top}/subgroups`, { auth: member, query: { direct_subgroup_only: 'true' } })).subgroups).toEqual([2, sub]);
    expect(expectSuccess(await call(server, 'GET', `/user_groups/${top}/members`, { auth: member })).members).toEqual([world.owner.id, member.id]);
    expect(expectSuccess(await call(server, 'GET', `/user_groups/${top}/members/${world.owner.id}`, { auth: member, query: { direct_member_only: 'true' } })).is_user_group_member).toBe(false);

    const refused = await call(server, 'POST', `/user_groups/${sub}/deactivate`, { auth: member });
    expectError(refused, 400, 'CANNOT_DEACTIVATE_GROUP_IN_USE', 'Cannot deactivate user group in use.');
    expect(refused.body.objections).toEqual([{ type: 'subgroup', supergroup_ids: [top] }]);
    expectSuccess(await call(server, 'POST', `/user_groups/${top}/deactivate`, { auth: member }));
    expectError(await call(server, 'PATCH', `/user_groups/${top}`, { auth: member, body: form({ can_join_group: '{' }) }), 400, 'BAD_REQUEST', 'can_join_group is not valid JSON');
    expectError(await call(server, 'POST', '/user_groups/1/subgroups', { auth: world.owner, body: form({ add: '[3]' }) }), 400, 'BAD_REQUEST', 'Insufficient permission');
    expectError(await call(server, 'GET', `/user_groups/${top}/members`), 401, 'UNAUTHORIZED', 'Not logged in: API authentication or user session required');
  });
});
