/** Subgroups: changes with their checks and events, recursive membership for reads, permissions and mentions. */
import {
  type ApiError,
  type Caller,
  type Ctx,
  doDeactivateUserGroup,
  doSendMessage,
  doSubscribe,
  doUpdateRealm,
  doUpdateUserGroupSubgroups,
  getIsUserGroupMember,
  getMessage,
  getUserGroupMembers,
  getUserGroupSubgroups,
} from '@teamchat/core';
import type { Result } from 'neverthrow';
import { beforeEach, describe, expect, it } from 'vitest';
import { must } from '../helpers/core.js';
import { type ChannelWorld, channelWorld, ids, queued, recipientsOf, register, subscribe } from './channel-helpers.js';
import { expectBadRequest, expectError, secondRealm } from './fixtures.js';
import { applyUserGroupEvents } from './apply-user-group-events.js';
import { changeMembers, createGroup, type Group, groupById } from './user-group-helpers.js';

let c: ChannelWorld;
beforeEach(async () => {
  c = await channelWorld();
});

const subgroups = (id: number, change: { add?: number[]; delete?: number[] }, user = c.member) =>
  doUpdateUserGroupSubgroups.fromTransport(c.w.ctx, c.w.as(user), {
    user_group_id: id,
    ...(change.add ? { add: JSON.stringify(change.add) } : {}),
    ...(change.delete ? { delete: JSON.stringify(change.delete) } : {}),
  });
/** Reads through `read(op)(input)`, as a guest: any member may read groups. */
const read =
  <I, R>(op: (ctx: Ctx, caller: Caller, input: I) => Promise<Result<R, ApiError>>, user = c.guest) =>
  async (input: I): Promise<R> =>
    must(await op(c.w.ctx, c.w.as(user), input));
const everyone = () => ids(c.w.owner, c.admin, c.moderator, c.member, c.other, c.guest, c.bot);

describe('POST /user_groups/{id}/subgroups', () => {
  it('adds and removes subgroups (system groups too); add_subgroups / remove_subgroups to everyone; verify_action', async () => {
    const [top, mid, leaf] = [await createGroup(c, 'top'), await createGroup(c, 'mid'), await createGroup(c, 'leaf', [c.other.id])];
    const before = await register(c.w, c.guest, { fetch_event_types: '["user_group"]', event_types: '["user_group"]' });
    c.drain();
    must(await subgroups(top, { add: [mid, 3] }));
    must(await subgroups(mid, { add: [leaf] }));
    must(await subgroups(top, { delete: [3] }));
    const published = c.drain();
    expect(published.map((p) => p.event)).toEqual([
      { type: 'user_group', op: 'add_subgroups', group_id: top, direct_subgroup_ids: [mid, 3] },
      { type: 'user_group', op: 'add_subgroups', group_id: mid, direct_subgroup_ids: [leaf] },
      { type: 'user_group', op: 'remove_subgroups', group_id: top, direct_subgroup_ids: [3] },
    ]);
    expect(recipientsOf(published, 'user_group')).toEqual([everyone(), everyone(), everyone()]);
    const after = (await register(c.w, c.guest, { fetch_event_types: '["user_group"]' })).realm_user_groups;
    expect(applyUserGroupEvents(before.realm_user_groups as Group[], await queued(c.w, c.guest, before.queue_id))).toEqual(after);
    expect((await groupById(c, top))!.direct_subgroup_ids).toEqual([mid]);
    // The members endpoint changes subgroups too (FL 311), after the members.
    c.drain();
    must(await changeMembers(c, top, { add: [c.guest.id], add_subgroups: [leaf], delete_subgroups: [mid] }));
    expect(c.drain().map((p) => p.event.op)).toEqual(['add_members', 'add_subgroups', 'remove_subgroups']);
    expect((await groupById(c, top))!.direct_subgroup_ids).toEqual([leaf]);
  });

  it('errors: cycles, existing and absent subgroups, unknown, deactivated and other realms\' groups, permission, bad input; nothing changes', async () => {
    const [top, mid, leaf] = [await createGroup(c, 'top'), await createGroup(c, 'mid'), await createGroup(c, 'leaf')];
    must(await subgroups(top, { add: [mid] }));
    must(await subgroups(mid, { add: [leaf] }));
    const other = await secondRealm(c.w.ctx);
    const theirs = await createGroup({ ...c, w: { ...c.w, as: () => ({ realm: other.realm, user: other.owner }) } }, 'theirs', [], other.owner);
    const gone = await createGroup(c, 'gone');
    must(await doDeactivateUserGroup(c.w.ctx, c.w.as(c.member), { user_group_id: gone }));
    c.drain();
    expectBadRequest(await subgroups(leaf, { add: [top] }), `User group ${leaf} is already a subgroup of one of the passed subgroups.`);
    expectBadRequest(await subgroups(top, { add: [top] }), `User group ${top} is already a subgroup of one of the passed subgroups.`);
    expectBadRequest(await subgroups(top, { add: [mid] }), `User group ${mid} is already a subgroup of this group.`);
    expectBadRequest(await subgroups(top, { delete: [leaf] }), `User group ${leaf} is not a subgroup of this group.`);
    for (const bad of [9999, theirs]) expectBadRequest(await subgroups(top, { add: [bad] }), `Invalid user group ID: ${bad}`);
    expectBadRequest(await subgroups(top, { add: [gone] }), 'User group is deactivated.');
    expectBadRequest(await subgroups(9999, { add: [mid] }), 'Invalid user group');
    expectBadRequest(await subgroups(top, {}), 'Nothing to do. Specify at least one of "add" or "delete".');
    // Subgroups are managed through can_manage_group: the creator here, not other members or administrators.
    for (const user of [c.other, c.admin, c.guest]) expectBadRequest(await subgroups(top, { add: [leaf] }, user), 'Insufficient permission');
    // An add that succeeds is undone when the delete in the same request fails.
    expectBadRequest(await subgroups(top, { add: [leaf], delete: [3] }), 'User group 3 is not a subgroup of this group.');
    const as = c.w.as(c.member);
    expectBadRequest(await doUpdateUserGroupSubgroups.fromTransport(c.w.ctx, as, { user_group_id: 'x', add: '[1]' }), 'user_group_id is not an integer');
    expectBadRequest(await doUpdateUserGroupSubgroups.fromTransport(c.w.ctx, as, { user_group_id: String(top), add: '[1' }), 'add is not valid JSON');
    expectBadRequest(await doUpdateUserGroupSubgroups.fromTransport(c.w.ctx, as, { user_group_id: top, add: ["a"] }), 'add[0] is not an integer');
    expectError(await doUpdateUserGroupSubgroups(c.w.ctx, { realm: c.w.realm, user: null }, { user_group_id: top, add: [1] }), 'UNAUTHORIZED', 'Not logged in: API authentication or user session required', 401);
    expect((await groupById(c, top))!.direct_subgroup_ids).toEqual([mid]);
    expect(c.drain()).toEqual([]);
  });
});

describe('reading members and subgroups', () => {
  it('members and subgroups are recursive unless direct_*_only; system groups answer too; guests may read', async () => {
    const [top, mid] = [await createGroup(c, 'top', [c.member.id]), await createGroup(c, 'mid', [c.other.id])];
    must(await subgroups(top, { add: [mid, 3] }));
    const id = top;
    expect(await read(getUserGroupMembers)({ user_group_id: id })).toEqual({ members: ids(c.w.owner, c.admin, c.moderator, c.member, c.other) });
    expect(await read(getUserGroupMembers)({ user_group_id: id, direct_member_only: true })).toEqual({ members: [c.member.id] });
    expect(await read(getUserGroupSubgroups)({ user_group_id: id })).toEqual({ subgroups: [1, 2, 3, mid] });
    expect(await read(getUserGroupSubgroups)({ user_group_id: id, direct_subgroup_only: true })).toEqual({ subgroups: [3, mid] });
    expect(await read(getUserGroupSubgroups)({ user_group_id: 7 })).toEqual({ subgroups: [1, 2, 3, 4, 5, 6] });
    expect(await read(getUserGroupMembers)({ user_group_id: 2 })).toEqual({ members: ids(c.w.owner, c.admin) });
    expect(await read(getUserGroupMembers)({ user_group_id: 2, direct_member_only: true })).toEqual({ members: [c.admin.id] });
    const isMember = async (user: number, extra: { direct_member_only?: boolean } = {}) =>
      (await read(getIsUserGroupMember)({ user_group_id: id, user_id: user, ...extra })).is_user_group_member;
    expect([await isMember(c.other.id), await isMember(c.admin.id), await isMember(c.guest.id)]).toEqual([true, true, false]);
    expect(await isMember(c.other.id, { direct_member_only: true })).toBe(false);

    const other = await secondRealm(c.w.ctx);
    for (const op of [getUserGroupMembers, getUserGroupSubgroups]) {
      expectBadRequest(await op(c.w.ctx, c.w.as(c.guest), { user_group_id: 9999 }), 'Invalid user group');
      expectBadRequest(await op.fromTransport(c.w.ctx, c.w.as(c.guest), { user_group_id: 'x' }), 'user_group_id is not an integer');
      expectError(await op(c.w.ctx, { realm: c.w.realm, user: null }, { user_group_id: id }), 'UNAUTHORIZED', 'Not logged in: API authentication or user session required', 401);
    }
    expectBadRequest(await getUserGroupMembers.fromTransport(c.w.ctx, c.w.as(c.guest), { user_group_id: id, direct_member_only: 'yes' }), 'direct_member_only is not valid JSON');
    for (const bad of [9999, other.owner.id, c.bot.id]) {
      expectBadRequest(await getIsUserGroupMember(c.w.ctx, c.w.as(c.guest), { user_group_id: id, user_id: bad }), 'No such user');
    }
  });
});

describe('recursive membership in permissions and mentions', () => {
  it('a subgroup\'s members hold a permission naming the supergroup, and are mentioned with it', async () => {
    await subscribe(c.w, c.w.owner, ['general']);
    await subscribe(c.w, c.other, ['general']);
    await subscribe(c.w, c.member, ['general']);
    const [top, mid] = [await createGroup(c, 'top'), await createGroup(c, 'mid', [c.other.id])];
    must(await subgroups(top, { add: [mid] }));
    must(await doUpdateRealm(c.w.ctx, c.w.as(c.w.owner), { can_create_public_channel_group: { new: top } }));
    must(await doSubscribe(c.w.ctx, c.w.as(c.other), { subscriptions: [{"name":"by-otto"}] }));
    expectBadRequest(await doSubscribe(c.w.ctx, c.w.as(c.member), { subscriptions: [{"name":"by-mel"}] }), 'Insufficient permission');
    const sent = must(await doSendMessage(c.w.ctx, c.w.as(c.w.owner), { type: 'stream', to: 'general', topic: 'hi', content: 'hello @*top*' }));
    const flags = async (user = c.other) => (must(await getMessage(c.w.ctx, c.w.as(user), { message_id: sent.id })) as { message: { flags: string[] } }).message.flags;
    expect(await flags()).toContain('mentioned');
    expect(await flags(c.member)).not.toContain('mentioned');
  });
});
