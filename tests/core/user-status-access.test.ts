/**
 * GET /users/{user_id}/status, the administrators' POST /users/{user_id}/status, and who hears
 * of a status under can_access_all_users_group.
 */
import { doRegister, doUpdateOwnStatus, doUpdateUserStatus, getUserStatus, type User } from '@teamchat/core';
import { describe, expect, it } from 'vitest';
import { must } from '../helpers/core.js';
import { type ChannelWorld, channelWorld } from './channel-helpers.js';
import { expectBadRequest, reload, secondRealm, setUser } from './fixtures.js';
import { accessWorld, as, setAccessGroup } from './user-access-helpers.js';

const statusOf = (c: ChannelWorld, viewer: User, target: number | string) => getUserStatus.fromTransport(c.w.ctx, c.w.as(viewer), { user_id: target });
const setFor = (c: ChannelWorld, admin: User, target: number, input: Record<string, unknown>) =>
  doUpdateUserStatus(c.w.ctx, c.w.as(admin), { user_id: target, ...input });

describe('GET /users/{user_id}/status', () => {
  it('answers {} for a user without a status, and the set parts of a status, away included', async () => {
    const c = await channelWorld();
    expect(must(await statusOf(c, c.other, c.member.id))).toEqual({ status: {} });
    must(await doUpdateOwnStatus(c.w.ctx, c.w.as(c.member), { status_text: 'on vacation', emoji_name: 'car', away: true }));
    expect(must(await statusOf(c, c.other, c.member.id))).toEqual({
      status: { away: true, status_text: 'on vacation', emoji_name: 'car', emoji_code: '1f697', reaction_type: 'unicode_emoji' },
    });
    // A cleared status of a user who is not away reads as {} (the row stays).
    must(await doUpdateOwnStatus(c.w.ctx, c.w.as(c.member), { status_text: '', emoji_name: '', away: false }));
    expect(must(await statusOf(c, c.member, c.member.id))).toEqual({ status: {} });
  });

  it('refuses unknown users, bots, other realms\' users, deactivated users and malformed IDs', async () => {
    const c = await channelWorld();
    const far = await secondRealm(c.w.ctx);
    expectBadRequest(await statusOf(c, c.member, 999_999), 'No such user');
    expectBadRequest(await statusOf(c, c.member, c.bot.id), 'No such user');
    expectBadRequest(await statusOf(c, c.member, far.owner.id), 'No such user');
    await setUser(c.w.ctx, c.other, { isActive: false });
    expectBadRequest(await statusOf(c, c.member, c.other.id), 'User is deactivated');
    expectBadRequest(await statusOf(c, c.member, 'me'), 'user_id is not an integer');
    expectBadRequest(await statusOf(c, c.member, '-1'), 'user_id is not an integer');
  });
});

describe('POST /users/{user_id}/status (administrators)', () => {
  it("sets another user's status with the same checks and event; `away` is not a parameter here", async () => {
    const c = await channelWorld();
    c.drain();
    expect(must(await setFor(c, c.admin, c.member.id, { status_text: 'out sick', away: 'true' }))).toEqual({});
    expect(c.drain().map((p) => p.event)).toEqual([{ type: 'user_status', user_id: c.member.id, status_text: 'out sick' }]);
    expect((await reload(c.w.ctx, c.member)).settings).toEqual({});
    expect(must(await statusOf(c, c.other, c.member.id))).toEqual({ status: { status_text: 'out sick' } });
    expectBadRequest(await setFor(c, c.admin, c.member.id, {}), 'Client did not pass any new values.');
    expectBadRequest(await setFor(c, c.admin, c.member.id, { emoji_name: 'nope' }), "Emoji 'nope' does not exist");
  });

  it('refuses non-administrators, bots as callers or targets, deactivated and unknown targets', async () => {
    const c = await channelWorld();
    const far = await secondRealm(c.w.ctx);
    expectBadRequest(await setFor(c, c.moderator, c.member.id, { status_text: 'x' }), 'Insufficient permission');
    expectBadRequest(await setFor(c, c.member, c.other.id, { status_text: 'x' }), 'Insufficient permission');
    expectBadRequest(await setFor(c, c.bot, c.other.id, { status_text: 'x' }), 'This endpoint does not accept bot requests.');
    expectBadRequest(await setFor(c, c.admin, c.bot.id, { status_text: 'x' }), 'No such user');
    expectBadRequest(await setFor(c, c.admin, far.owner.id, { status_text: 'x' }), 'No such user');
    expectBadRequest(await setFor(c, c.admin, 999_999, { status_text: 'x' }), 'No such user');
    await setUser(c.w.ctx, c.other, { isActive: false });
    expectBadRequest(await setFor(c, c.admin, c.other.id, { status_text: 'x' }), 'User is deactivated');
    expect(await c.w.ctx.storage.read((tx) => tx.userStatuses.list(c.w.realm.id))).toEqual([]);
    expect(c.drain().filter((p) => p.event.type === 'user_status')).toEqual([]);
  });
});

describe('statuses under can_access_all_users_group', () => {
  it('a restricted guest hears of, reads and registers only the statuses of users they may access', async () => {
    const { w, guest, channelmate, stranger } = await accessWorld();
    await setAccessGroup(w, 'role:members');
    const published: Array<{ userIds: readonly number[]; event: { type: string; user_id?: unknown } }> = [];
    w.ctx.events.subscribe((p) => published.push(p));
    for (const user of [channelmate, stranger]) must(await doUpdateOwnStatus(w.ctx, await as(w, user), { status_text: `${user.fullName} here` }));
    const [toChannelmate, toStranger] = published.filter((p) => p.event.type === 'user_status');
    expect(toChannelmate!.userIds).toContain(guest.id);
    expect(toStranger!.userIds).not.toContain(guest.id);
    expect(toStranger!.userIds).toContain(channelmate.id);

    const state = must(await doRegister(w.ctx, await as(w, guest), { fetch_event_types: ["user_status"] }));
    expect(state.user_status).toEqual({ [String(channelmate.id)]: { status_text: 'Cam Channelmate here' } });
    expect(must(await getUserStatus(w.ctx, await as(w, guest), { user_id: channelmate.id }))).toEqual({
      status: { status_text: 'Cam Channelmate here' },
    });
    expectBadRequest(await getUserStatus(w.ctx, await as(w, guest), { user_id: stranger.id }), 'Insufficient permission');
  });
});
