/** Changing a group: creation with settings and subgroups, PATCH, joining and leaving, deactivation and reactivation. */
import { doCreateUserGroup, doDeactivateUserGroup, doSubscribe, doUpdateRealm, doUpdateUserGroup } from '@teamchat/core';
import { beforeEach, describe, expect, it } from 'vitest';
import { must } from '../helpers/core.js';
import { applyUserGroupEvents } from './apply-user-group-events.js';
import { type ChannelWorld, channel, channelWorld, ids, queued, recipientsOf, register, setStream } from './channel-helpers.js';
import { expectBadRequest, expectError, secondRealm } from './fixtures.js';
import { changeMembers, createGroup, type Group, groupById, listGroups } from './user-group-helpers.js';

let c: ChannelWorld;
beforeEach(async () => {
  c = await channelWorld();
});

const patch = (id: number, params: Record<string, string>, user = c.member) => doUpdateUserGroup(c.w.ctx, c.w.as(user), { user_group_id: id, ...params });
const deactivate = (id: number, user = c.member) => doDeactivateUserGroup(c.w.ctx, c.w.as(user), { user_group_id: id });
const change = (value: unknown, old?: unknown) => JSON.stringify(old === undefined ? { new: value } : { new: value, old });

describe('POST /user_groups/create with settings and subgroups', () => {
  it('stores the given settings (others default) and adds subgroups after the add event', async () => {
    const sub = await createGroup(c, 'sub');
    c.drain();
    const id = await createGroup(c, 'top', [c.member.id], c.member, {
      can_join_group: '5',
      can_mention_group: JSON.stringify({ direct_members: [c.other.id], direct_subgroups: [sub] }),
      can_manage_group: JSON.stringify({ direct_members: [], direct_subgroups: [3] }),
      subgroups: JSON.stringify([sub, 2]),
    });
    const events = c.drain().map((p) => p.event);
    expect(events.map((e) => e.op)).toEqual(['add', 'add_subgroups']);
    expect(events[0]!.group).toMatchObject({ id, direct_subgroup_ids: [], can_join_group: 5, can_manage_group: 3, can_leave_group: 6 });
    expect(events[1]).toEqual({ type: 'user_group', op: 'add_subgroups', group_id: id, direct_subgroup_ids: [sub, 2] });
    expect(await groupById(c, id)).toMatchObject({
      direct_subgroup_ids: [2, sub],
      can_add_members_group: { direct_members: [c.member.id], direct_subgroups: [] },
      can_mention_group: { direct_members: [c.other.id], direct_subgroups: [sub] },
    });
  });

  it('errors: settings the reference refuses, unknown subgroups, bad JSON; nothing is created', async () => {
    const attempt = (extra: Record<string, string>) => doCreateUserGroup(c.w.ctx, c.w.as(c.member), { name: 'team', description: '', members: [], ...extra });
    expectBadRequest(await attempt({ can_manage_group: '6' }), "'can_manage_group' setting cannot be set to 'role:everyone' group.");
    expectBadRequest(await attempt({ can_leave_group: '7' }), "'can_leave_group' setting cannot be set to 'role:internet' group.");
    expectBadRequest(await attempt({ can_join_group: '9999' }), 'Invalid user group');
    expectBadRequest(await attempt({ can_join_group: JSON.stringify({ direct_members: [9999], direct_subgroups: [] }) }), 'Invalid user ID: 9999');
    expectBadRequest(await attempt({ subgroups: '[9999]' }), 'Invalid user group ID: 9999');
    expectBadRequest(await attempt({ subgroups: '[1' }), 'subgroups is not valid JSON');
    expectBadRequest(await attempt({ can_join_group: '"x"' }), 'Invalid can_join_group');
    expect((await listGroups(c)).filter((g) => g.id > 8)).toEqual([]);
    expect(c.drain()).toEqual([]);
  });
});

describe('PATCH /user_groups/{id}', () => {
  it('name, description and settings: one update event each to everyone; verify_action', async () => {
    const id = await createGroup(c, 'backend');
    const before = await register(c.w, c.guest, { fetch_event_types: '["user_group"]', event_types: '["user_group"]' });
    c.drain();
    must(await patch(id, { name: 'Backend', description: 'Servers', can_join_group: change(5, 8), can_mention_group: change({ direct_members: [c.other.id], direct_subgroups: [] }) }));
    const published = c.drain();
    expect(published.map((p) => p.event)).toEqual([
      { type: 'user_group', op: 'update', group_id: id, data: { name: 'Backend' } },
      { type: 'user_group', op: 'update', group_id: id, data: { description: 'Servers' } },
      { type: 'user_group', op: 'update', group_id: id, data: { can_join_group: 5 } },
      { type: 'user_group', op: 'update', group_id: id, data: { can_mention_group: { direct_members: [c.other.id], direct_subgroups: [] } } },
    ]);
    expect(recipientsOf(published, 'user_group')).toEqual(Array(4).fill(ids(c.w.owner, c.admin, c.moderator, c.member, c.other, c.guest, c.bot)));
    const after = (await register(c.w, c.guest, { fetch_event_types: '["user_group"]' })).realm_user_groups;
    expect(applyUserGroupEvents(before.realm_user_groups as Group[], await queued(c.w, c.guest, before.queue_id))).toEqual(after);
    // Unchanged values send nothing; the realm's can_manage_all_groups (owners) may edit too.
    must(await patch(id, { name: 'Backend', can_join_group: change(5) }, c.w.owner));
    expect(c.drain()).toEqual([]);
  });

  it('errors: no data, unknown, other realm\'s, not a manager, taken names, old mismatch, bad values; nothing changes', async () => {
    const id = await createGroup(c, 'backend');
    await createGroup(c, 'frontend');
    const other = await secondRealm(c.w.ctx);
    const theirs = (must(await doCreateUserGroup(c.w.ctx, { realm: other.realm, user: other.owner }, { name: 'x', description: '', members: [] }))).group_id;
    c.drain();
    expectBadRequest(await patch(id, {}), 'No new data supplied');
    for (const bad of [9999, theirs]) expectBadRequest(await patch(bad, { name: 'y' }), 'Invalid user group');
    for (const user of [c.other, c.admin, c.guest]) expectBadRequest(await patch(id, { name: 'y' }, user), 'Insufficient permission');
    expectBadRequest(await patch(id, { name: 'FRONTEND' }), "User group 'FRONTEND' already exists.");
    expectBadRequest(await patch(id, { name: 'role:x' }), "User group name cannot start with 'role:'.");
    expectError(await patch(id, { can_join_group: change(5, 6) }), 'EXPECTATION_MISMATCH', "'old' value does not match the expected value.", 400);
    expectBadRequest(await patch(id, { can_add_members_group: change(6) }), "'can_add_members_group' setting cannot be set to 'role:everyone' group.");
    expectBadRequest(await patch(id, { can_join_group: '5' }), 'can_join_group is not a dict');
    expectBadRequest(await patch(id, { can_join_group: '{' }), 'can_join_group is not valid JSON');
    expectBadRequest(await patch(id, { deactivated: 'true' }), 'Use the deactivate endpoint to deactivate a user group.');
    expectBadRequest(await patch(id, { name: 'ok', description: 'fine', can_join_group: change(9999) }), 'Invalid user group');
    expectError(await doUpdateUserGroup(c.w.ctx, { realm: c.w.realm, user: null }, { user_group_id: id, name: 'y' }), 'UNAUTHORIZED', 'Not logged in: API authentication or user session required', 401);
    expect(await groupById(c, id)).toMatchObject({ name: 'backend', description: 'A team', can_join_group: 8 });
    expect(c.drain()).toEqual([]);
  });
});

describe('joining and leaving through POST /user_groups/{id}/members', () => {
  it('can_join_group lets a user add only themselves; can_leave_group lets them remove only themselves', async () => {
    const id = await createGroup(c, 'open', [c.member.id], c.member, { can_join_group: '5' });
    must(await changeMembers(c, id, { add: [c.other.id] }, c.other));
    expectBadRequest(await changeMembers(c, id, { add: [c.moderator.id, c.admin.id] }, c.moderator), 'Insufficient permission');
    // Guests never hold can_join_group (it does not allow everyone), even through role:members' supergroups.
    expectBadRequest(await changeMembers(c, id, { add: [c.guest.id] }, c.guest), 'Insufficient permission');
    must(await changeMembers(c, id, { add: [c.guest.id] }));
    // Everyone may leave by default; removing someone else needs can_remove_members_group.
    expectBadRequest(await changeMembers(c, id, { delete: [c.member.id] }, c.other), 'Insufficient permission');
    must(await changeMembers(c, id, { delete: [c.guest.id] }, c.guest));
    must(await patch(id, { can_leave_group: change(8) }));
    expectBadRequest(await changeMembers(c, id, { delete: [c.other.id] }, c.other), 'Insufficient permission');
    expect((await groupById(c, id))!.members).toEqual(ids(c.member, c.other));
  });
});

describe('POST /user_groups/{id}/deactivate', () => {
  it('deactivates: update {deactivated} for include_deactivated_groups clients, remove for the others; listed only on request; reactivated by PATCH', async () => {
    const id = await createGroup(c, 'old', [c.member.id]);
    const capable = await register(c.w, c.guest, { fetch_event_types: '["user_group"]', client_capabilities: '{"include_deactivated_groups": true}' });
    const plain = await register(c.w, c.guest, { fetch_event_types: '["user_group"]' });
    must(await deactivate(id));
    expect(await queued(c.w, c.guest, capable.queue_id)).toMatchObject([{ type: 'user_group', op: 'update', group_id: id, data: { deactivated: true } }]);
    expect((await queued(c.w, c.guest, plain.queue_id)).map(({ id: _, ...e }) => e)).toEqual([{ type: 'user_group', op: 'remove', group_id: id }]);
    expect(await groupById(c, id, false)).toBeUndefined();
    expect((await groupById(c, id, true))!.deactivated).toBe(true);
    const withDeactivated = await register(c.w, c.guest, { fetch_event_types: '["user_group"]', client_capabilities: '{"include_deactivated_groups": true}' });
    expect(withDeactivated.realm_user_groups.map((g: Group) => g.id)).toContain(id);
    expect(applyUserGroupEvents(capable.realm_user_groups, await queued(c.w, c.guest, capable.queue_id))).toEqual(withDeactivated.realm_user_groups);
    expectBadRequest(await deactivate(id), 'User group is deactivated.');
    // A deactivated group is no mention and no setting value; its members may still change (FL 391).
    expectBadRequest(await doUpdateRealm.fromTransport(c.w.ctx, c.w.as(c.w.owner), { can_create_groups: change(id) }), 'User group is deactivated.');
    must(await changeMembers(c, id, { add: [c.other.id] }));
    // Reactivation: update {deactivated: false} to capable clients, add with the group to the others.
    const again = await register(c.w, c.guest, { fetch_event_types: '["user_group"]' });
    must(await patch(id, { deactivated: 'false' }));
    const [added] = await queued(c.w, c.guest, again.queue_id);
    expect(added).toMatchObject({ type: 'user_group', op: 'add', group: { id, deactivated: false, members: ids(c.member, c.other) } });
    expect(applyUserGroupEvents(again.realm_user_groups, [added!])).toEqual((await register(c.w, c.guest, { fetch_event_types: '["user_group"]' })).realm_user_groups);
  });

  it('refuses a group in use (CANNOT_DEACTIVATE_GROUP_IN_USE with objections), unknown groups and non-managers', async () => {
    const [used, top, setter] = [await createGroup(c, 'used'), await createGroup(c, 'top'), await createGroup(c, 'setter')];
    must(await changeMembers(c, top, { add_subgroups: [used] }));
    must(await doUpdateRealm.fromTransport(c.w.ctx, c.w.as(c.w.owner), { can_create_groups: change({ direct_members: [c.member.id], direct_subgroups: [used] }) }));
    must(await doSubscribe(c.w.ctx, c.w.as(c.member), { subscriptions: [{"name":"ops"}] }));
    must(await patch(setter, { can_mention_group: change(used) }));
    const ops = await setStream(c.w, await channel(c.w, 'ops'), { groupSettings: { can_send_message_group: used } });
    c.drain();
    expectError(await deactivate(used), 'CANNOT_DEACTIVATE_GROUP_IN_USE', 'Cannot deactivate user group in use.', 400, {
      objections: [
        { type: 'subgroup', supergroup_ids: [top] },
        { type: 'realm', settings: ['can_create_groups'] },
        { type: 'channel', channel_id: ops.id, settings: ['can_send_message_group'] },
        { type: 'user_group', group_id: setter, settings: ['can_mention_group'] },
      ],
    });
    expectBadRequest(await deactivate(9999), 'Invalid user group');
    expectBadRequest(await deactivate(top, c.other), 'Insufficient permission');
    expectBadRequest(await doDeactivateUserGroup.fromTransport(c.w.ctx, c.w.as(c.member), { user_group_id: 'x' }), 'user_group_id is not an integer');
    expectError(await doDeactivateUserGroup(c.w.ctx, { realm: c.w.realm, user: null }, { user_group_id: top }), 'UNAUTHORIZED', 'Not logged in: API authentication or user session required', 401);
    expect((await groupById(c, used))!.deactivated).toBe(false);
    expect(c.drain()).toEqual([]);
  });
});
