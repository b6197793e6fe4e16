/** User groups in the core: create, list, members, events, register, and group mentions. */
import { doCreateUserGroup, doSendMessage, doUpdateMessage, doUpdateUserGroupMembers, getMessage, getUserGroups, type RegisterResponse } from '@teamchat/core';
import { eventsOfType } from '../helpers/events.js';
import { beforeEach, describe, expect, it } from 'vitest';
import { must } from '../helpers/core.js';
import { type ChannelWorld, channelWorld, ids, queued, recipientsOf, register, subscribe } from './channel-helpers.js';
import { expectBadRequest, expectError, secondRealm, setUser, T0 } from './fixtures.js';

let c: ChannelWorld;
beforeEach(async () => {
  c = await channelWorld();
});

const create = async (name: string, members: number[] = [], user = c.member, description = 'A team') =>
  (must(await doCreateUserGroup(c.w.ctx, c.w.as(user), { name, description, members: members }))).group_id;
// The realm's own groups: the system groups (IDs 1-8) come first and have their own tests.
const list = async (user = c.member) => (must(await getUserGroups(c.w.ctx, c.w.as(user), {}))).user_groups.filter((g) => g.id > 8);
const realmGroups = (snapshot: Pick<RegisterResponse, 'realm_user_groups'>) => (snapshot.realm_user_groups ?? []).filter((g) => g.id > 8);
const members = (groupId: number, change: { add?: number[]; delete?: number[] }, user = c.member) =>
  doUpdateUserGroupMembers.fromTransport(c.w.ctx, c.w.as(user), {
    user_group_id: groupId,
    ...(change.add ? { add: JSON.stringify(change.add) } : {}),
    ...(change.delete ? { delete: JSON.stringify(change.delete) } : {}),
  });
const everyone = () => ids(c.w.owner, c.admin, c.moderator, c.member, c.other, c.guest, c.bot);

const groupOf = (id: number, name: string, memberIds: number[], creatorId: number, description = 'A team') => ({
  id,
  name,
  description,
  members: memberIds,
  direct_subgroup_ids: [],
  creator_id: creatorId,
  date_created: Math.floor(T0 / 1000),
  is_system_group: false,
  deactivated: false,
  can_add_members_group: { direct_members: [creatorId], direct_subgroups: [] },
  can_join_group: 8,
  can_leave_group: 6,
  can_manage_group: { direct_members: [creatorId], direct_subgroups: [] },
  can_mention_group: 6,
  can_remove_members_group: 8,
});

describe('creating and listing', () => {
  it('a member creates a group; every user (guests too) lists it; register has realm_user_groups; everyone gets op add', async () => {
    const id = await create('backend', [c.other.id, c.member.id, c.other.id]);
    // IDs are above the system groups' fixed IDs.
    expect(id).toBeGreaterThan(8);
    const expected = groupOf(id, 'backend', ids(c.member, c.other), c.member.id);
    expect(await list(c.guest)).toEqual([expected]);
    expect(realmGroups(await register(c.w, c.guest, { fetch_event_types: '["user_group"]' }))).toEqual([expected]);
    const published = c.drain();
    expect(recipientsOf(published, 'user_group', 'add')).toEqual([everyone()]);
    expect(published.find((p) => p.event.type === 'user_group')!.event).toEqual({ type: 'user_group', op: 'add', group: expected });
    const second = await create('Frontend', [], c.admin, '');
    expect((await list()).map((g) => [g.id, g.name])).toEqual([
      [id, 'backend'],
      [second, 'Frontend'],
    ]);
  });

  it('errors: guests may not create; duplicate names in any case; bad names; unknown, deactivated and other realms\' users', async () => {
    await create('backend');
    const other = await secondRealm(c.w.ctx);
    const deactivated = await setUser(c.w.ctx, await c.w.addUser({ email: 'gone@example.com', fullName: 'Gone' }), { isActive: false });
    c.drain();
    const as = c.w.as(c.member);
    const attempt = (name: string, memberIds: number[] = [], user = c.member) =>
      doCreateUserGroup(c.w.ctx, c.w.as(user), { name, description: '', members: memberIds });
    expectBadRequest(await attempt('team', [], c.guest), 'Insufficient permission');
    expectBadRequest(await attempt('backend'), "User group 'backend' already exists.");
    expectBadRequest(await attempt('BackEnd'), "User group 'BackEnd' already exists.");
    expectBadRequest(await attempt(''), 'User group name cannot be empty.');
    expectBadRequest(await attempt('x'.repeat(101)), 'User group name cannot exceed 100 characters.');
    expectBadRequest(await attempt('role:admins'), "User group name cannot start with 'role:'.");
    expectBadRequest(await attempt('@team'), "User group name cannot start with '@'.");
    for (const bad of [9999, other.owner.id, deactivated.id]) expectBadRequest(await attempt('team', [c.other.id, bad]), `Invalid user ID: ${bad}`);
    const missing = (r: Parameters<typeof expectError>[0], name: string) => expectError(r, 'REQUEST_VARIABLE_MISSING', `Missing '${name}' argument`, 400, { var_name: name });
    missing(await doCreateUserGroup.fromTransport(c.w.ctx, as, { description: '', members: [] }), 'name');
    missing(await doCreateUserGroup.fromTransport(c.w.ctx, as, { name: 'team', members: [] }), 'description');
    missing(await doCreateUserGroup.fromTransport(c.w.ctx, as, { name: 'team', description: '' }), 'members');
    expectBadRequest(await doCreateUserGroup.fromTransport(c.w.ctx, as, { name: 'team', description: '', members: '[' }), 'members is not valid JSON');
    expectBadRequest(await doCreateUserGroup.fromTransport(c.w.ctx, as, { name: 'team', description: '', members: ["a"] }), 'members[0] is not an integer');
    expectBadRequest(await getUserGroups.fromTransport(c.w.ctx, as, { include_deactivated_groups: 'maybe' }), 'include_deactivated_groups is not valid JSON');
    const anonymous = { realm: c.w.realm, user: null };
    const notLoggedIn = 'Not logged in: API authentication or user session required';
    expectError(await getUserGroups(c.w.ctx, anonymous, {}), 'UNAUTHORIZED', notLoggedIn, 401);
    expectError(await doCreateUserGroup(c.w.ctx, anonymous, { name: 'team', description: '', members: [] }), 'UNAUTHORIZED', notLoggedIn, 401);
    expect((await list()).map((g) => g.name)).toEqual(['backend']);
    expect(c.drain()).toEqual([]);
    // Another realm has its own names and sees none of this realm's groups.
    must(await doCreateUserGroup(c.w.ctx, { realm: other.realm, user: other.owner }, { name: 'backend', description: '', members: [] }));
    expect((must(await getUserGroups(c.w.ctx, { realm: other.realm, user: other.owner }, {}))).user_groups.filter((g) => g.id > 8).map((g) => g.name)).toEqual(['backend']);
  });
});

describe('members', () => {
  it('the creator adds and removes members in one request; events add_members then remove_members to everyone', async () => {
    const id = await create('backend', [c.member.id, c.other.id]);
    c.drain();
    must(await members(id, { add: [c.guest.id, c.moderator.id], delete: [c.other.id] }));
    expect((await list())[0]!.members).toEqual(ids(c.member, c.moderator, c.guest));
    const published = c.drain();
    expect(published.map((p) => p.event)).toEqual([
      { type: 'user_group', op: 'add_members', group_id: id, user_ids: [c.guest.id, c.moderator.id] },
      { type: 'user_group', op: 'remove_members', group_id: id, user_ids: [c.other.id] },
    ]);
    expect(recipientsOf(published, 'user_group')).toEqual([everyone(), everyone()]);
    // The realm's can_manage_all_groups (owners by default) manages every group; an administrator alone does not.
    expectBadRequest(await members(id, { delete: [c.guest.id] }, c.admin), 'Insufficient permission');
    must(await members(id, { delete: [c.guest.id] }, c.w.owner));
    expect((await list())[0]!.members).toEqual(ids(c.member, c.moderator));
  });

  it('errors: unknown and other realms\' groups, nothing to do, not the manager, existing and absent members, bad users; nothing changes', async () => {
    const id = await create('backend', [c.member.id]);
    const other = await secondRealm(c.w.ctx);
    const theirs = (must(await doCreateUserGroup(c.w.ctx, { realm: other.realm, user: other.owner }, { name: 'x', description: '', members: [] }))).group_id;
    c.drain();
    for (const unknown of [theirs, 9999]) expectBadRequest(await members(unknown, { add: [c.other.id] }), 'Invalid user group');
    // System groups follow roles: the API never changes them.
    expectBadRequest(await members(1, { add: [c.other.id] }, c.w.owner), 'Insufficient permission');
    expectBadRequest(await members(id, {}), 'Nothing to do. Specify at least one of "add", "delete", "add_subgroups" or "delete_subgroups".');
    for (const user of [c.other, c.moderator, c.guest, c.admin]) expectBadRequest(await members(id, { add: [c.other.id] }, user), 'Insufficient permission');
    expectBadRequest(await members(id, { add: [c.other.id, c.member.id] }), `User ${c.member.id} is already a member of this group`);
    expectBadRequest(await members(id, { add: [c.other.id], delete: [c.guest.id] }), `There is no member '${c.guest.id}' in this user group`);
    expectBadRequest(await members(id, { delete: [9999] }), 'Invalid user ID: 9999');
    for (const bad of [9999, other.owner.id]) expectBadRequest(await members(id, { add: [bad] }), `Invalid user ID: ${bad}`);
    const as = c.w.as(c.member);
    expectBadRequest(await doUpdateUserGroupMembers.fromTransport(c.w.ctx, as, { user_group_id: 'abc', add: '[1]' }), 'user_group_id is not an integer');
    expectBadRequest(await doUpdateUserGroupMembers.fromTransport(c.w.ctx, as, { user_group_id: String(id), add: '[' }), 'add is not valid JSON');
    expectBadRequest(await doUpdateUserGroupMembers.fromTransport(c.w.ctx, as, { user_group_id: String(id), delete: '"x"' }), 'delete is not a list');
    expectError(await doUpdateUserGroupMembers(c.w.ctx, { realm: c.w.realm, user: null }, { user_group_id: id, add: [1] }), 'UNAUTHORIZED', 'Not logged in: API authentication or user session required', 401);
    expect((await list())[0]!.members).toEqual([c.member.id]);
    expect(c.drain()).toEqual([]);
  });

  it('verify_action: applying the queued events to the register snapshot gives a fresh one', async () => {
    const first = await create('backend', [c.member.id]);
    const before = await register(c.w, c.guest, { fetch_event_types: '["user_group"]', event_types: '["user_group"]' });
    const second = await create('frontend', [c.other.id]);
    must(await members(first, { add: [c.other.id, c.guest.id], delete: [c.member.id] }));
    must(await members(second, { add: [c.member.id] }));
    let state = structuredClone(realmGroups(before));
    for (const event of eventsOfType(await queued(c.w, c.guest, before.queue_id), 'user_group')) {
      if (event.op === 'add') state.push(event.group);
      const group = state.find((g) => 'group_id' in event && g.id === event.group_id);
      if (event.op === 'add_members') group!.members = [...group!.members, ...event.user_ids].sort((a, b) => a - b);
      if (event.op === 'remove_members') group!.members = group!.members.filter((m) => !event.user_ids.includes(m));
    }
    state = state.sort((a, b) => a.id - b.id);
    expect(state).toEqual(realmGroups(await register(c.w, c.guest, { fetch_event_types: '["user_group"]' })));
  });
});

describe('group mentions', () => {
  beforeEach(async () => {
    await subscribe(c.w, c.w.owner, ['general']);
    await subscribe(c.w, c.member, ['general']);
    await subscribe(c.w, c.other, ['general']);
    await subscribe(c.w, c.moderator, ['general']);
  });
  const send = async (content: string) =>
    (must(await doSendMessage(c.w.ctx, c.w.as(c.w.owner), { type: 'stream', to: 'general', topic: 'hi', content }))).id;
  const read = async (id: number, user = c.member) =>
    (must(await getMessage(c.w.ctx, c.w.as(user), { message_id: id })) as { message: { content: string; flags: string[] } }).message;

  it('@*group* renders a user-group-mention and flags its members (not others) as mentioned, also after an edit', async () => {
    const id = await create('Backend Team', [c.member.id]);
    const sent = await send('hello @*backend team*');
    const message = await read(sent);
    expect(message.content).toBe(`<p>hello <span class="user-group-mention" data-user-group-id="${id}">@Backend Team</span></p>`);
    expect(message.flags).toContain('mentioned');
    expect((await read(sent, c.other)).flags).not.toContain('mentioned');
    // A silent mention flags nobody; an unknown group is not a mention.
    expect((await read(await send('@_*Backend Team*'))).flags).not.toContain('mentioned');
    expect((await read(await send('@*nobody here*'))).content).toBe('<p>@<em>nobody here</em></p>');

    must(await members(id, { add: [c.other.id] }));
    const edited = await send('plain');
    must(await doUpdateMessage(c.w.ctx, c.w.as(c.w.owner), { message_id: edited, content: 'now @*Backend Team*' }));
    expect((await read(edited, c.other)).flags).toContain('mentioned');
    expect((await read(edited, c.moderator)).flags).not.toContain('mentioned');
    must(await doUpdateMessage(c.w.ctx, c.w.as(c.w.owner), { message_id: edited, content: 'gone' }));
    expect((await read(edited, c.other)).flags).not.toContain('mentioned');
  });
});
