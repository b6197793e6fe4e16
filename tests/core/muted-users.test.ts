/** POST and DELETE /users/me/muted_users/{muted_user_id}: the list, its events, the read flags muting sets, and the errors. */
import { doMuteUser, doUnmuteUser, ensureNotificationBots, FLAG_BITS, NOTIFICATION_BOT_EMAIL, type User } from '@teamchat/core/internal';
import { describe, expect, it } from 'vitest';
import { must } from '../helpers/core.js';
import { queued, recipientsOf, register } from './channel-helpers.js';
import { expectBadRequest, secondRealm, setUser, T0 } from './fixtures.js';
import { type MessageWorld, messageWorld } from './message-helpers.js';
import { accessWorld, as, setAccessGroup } from './user-access-helpers.js';

const NOW = Math.floor(T0 / 1000);
const mute = (m: MessageWorld, user: User, target: number | string) => doMuteUser.fromTransport(m.w.ctx, m.w.as(user), { muted_user_id: target });
const unmute = (m: MessageWorld, user: User, target: number | string) => doUnmuteUser.fromTransport(m.w.ctx, m.w.as(user), { muted_user_id: target });
const mutedList = async (m: MessageWorld, user: User) => (await register(m.w, user, { fetch_event_types: '["muted_users"]' })).muted_users;
/** Whether each message is read for the user (undefined: no copy). */
const readFlags = async (m: MessageWorld, user: User, ids: number[]) => {
  const flags = await m.w.ctx.storage.read((tx) => tx.messages.flagsOf(user.id, ids));
  return ids.map((id) => (flags.has(id) ? Boolean(flags.get(id)! & FLAG_BITS.read) : undefined));
};
const dm = (m: MessageWorld, from: User, to: User[]) => m.send(from, { type: 'direct', to: JSON.stringify(to.map((u) => u.id)), content: 'psst' });

describe('muting users', () => {
  it('mutes and unmutes; the muted_users list goes to the user alone and register lists it, oldest first', async () => {
    const m = await messageWorld();
    const queue = await register(m.w, m.member, { event_types: '["muted_users"]' });
    expect(must(await mute(m, m.member, m.other.id))).toEqual({});
    must(await mute(m, m.member, m.admin.id));
    expect(await mutedList(m, m.member)).toEqual([{ id: m.other.id, timestamp: NOW }, { id: m.admin.id, timestamp: NOW }]);
    expect(await mutedList(m, m.other)).toEqual([]);
    must(await unmute(m, m.member, m.other.id));
    expect(recipientsOf(m.drain(), 'muted_users')).toEqual([[m.member.id], [m.member.id], [m.member.id]]);
    expect((await queued(m.w, m.member, queue.queue_id)).map(({ id: _id, ...e }) => e)).toEqual([
      { type: 'muted_users', muted_users: [{ id: m.other.id, timestamp: NOW }] },
      { type: 'muted_users', muted_users: [{ id: m.other.id, timestamp: NOW }, { id: m.admin.id, timestamp: NOW }] },
      { type: 'muted_users', muted_users: [{ id: m.admin.id, timestamp: NOW }] },
    ]);
  });

  it('marks the muted user\'s unread messages read for the muter only, with update_message_flags before muted_users', async () => {
    const m = await messageWorld();
    const channel = await m.post(m.other, 'spam in channel');
    const direct = await dm(m, m.other, [m.member]);
    const group = await dm(m, m.other, [m.member, m.admin]);
    const fromAdmin = await m.post(m.admin, 'not muted');
    m.drain();
    must(await mute(m, m.member, m.other.id));
    expect(await readFlags(m, m.member, [channel, direct, group, fromAdmin])).toEqual([true, true, true, false]);
    expect(await readFlags(m, m.admin, [channel, group])).toEqual([false, false]);
    expect(m.drain().map((p) => [p.event.type, p.userIds])).toEqual([
      ['update_message_flags', [m.member.id]],
      ['muted_users', [m.member.id]],
    ]);
    // Unmuting leaves them read.
    must(await unmute(m, m.member, m.other.id));
    expect(await readFlags(m, m.member, [channel, direct, group])).toEqual([true, true, true]);
  });

  it('sends no flags event when the muted user has nothing unread', async () => {
    const m = await messageWorld();
    must(await mute(m, m.member, m.other.id));
    expect(m.drain().map((p) => p.event.type)).toEqual(['muted_users']);
  });

  it("delivers a muted sender's new messages already read to the muter, and unread again after unmuting", async () => {
    const m = await messageWorld();
    must(await mute(m, m.member, m.other.id));
    const queue = await register(m.w, m.member, { event_types: '["message"]' });
    m.drain();
    const channel = await m.post(m.other, 'channel');
    const direct = await dm(m, m.other, [m.member]);
    const group = await dm(m, m.other, [m.member, m.admin]);
    expect(await readFlags(m, m.member, [channel, direct, group])).toEqual([true, true, true]);
    expect(await readFlags(m, m.admin, [channel, group])).toEqual([false, false]);
    expect((await queued(m.w, m.member, queue.queue_id)).map((e) => e.flags)).toEqual([['read'], ['read'], ['read']]);
    // The muter's own messages to the muted user are unaffected.
    const reply = await dm(m, m.member, [m.other]);
    expect(await readFlags(m, m.other, [reply])).toEqual([false]);
    must(await unmute(m, m.member, m.other.id));
    const later = await m.post(m.other, 'later');
    expect(await readFlags(m, m.member, [later])).toEqual([false]);
  });

  it('may mute bots, deactivated users and the Notification Bot', async () => {
    const m = await messageWorld();
    await ensureNotificationBots(m.w.ctx);
    const notifier = await m.w.ctx.storage.read((tx) => tx.users.byDeliveryEmail(m.w.realm.id, NOTIFICATION_BOT_EMAIL));
    await setUser(m.w.ctx, m.other, { isActive: false });
    for (const target of [m.bot, m.other, notifier!]) must(await mute(m, m.member, target.id));
    expect((await mutedList(m, m.member)).map((x: { id: number }) => x.id)).toEqual([m.bot.id, m.other.id, notifier!.id]);
    for (const target of [m.bot, m.other, notifier!]) must(await unmute(m, m.member, target.id));
    expect(await mutedList(m, m.member)).toEqual([]);
  });

  it("gives the reference's errors and writes or sends nothing", async () => {
    const m = await messageWorld();
    const far = await secondRealm(m.w.ctx);
    must(await mute(m, m.member, m.other.id));
    m.drain();
    expectBadRequest(await mute(m, m.member, m.member.id), 'Cannot mute self');
    expectBadRequest(await mute(m, m.member, m.other.id), 'User already muted');
    expectBadRequest(await mute(m, m.member, 999_999), 'No such user');
    expectBadRequest(await mute(m, m.member, far.owner.id), 'No such user');
    expectBadRequest(await mute(m, m.member, 'abc'), 'muted_user_id is not an integer');
    expectBadRequest(await unmute(m, m.member, m.admin.id), 'User is not muted');
    expectBadRequest(await unmute(m, m.member, m.member.id), 'User is not muted');
    expectBadRequest(await unmute(m, m.member, 999_999), 'No such user');
    expectBadRequest(await unmute(m, m.member, far.owner.id), 'No such user');
    expectBadRequest(await unmute(m, m.member, '1.5'), 'muted_user_id is not an integer');
    expect(await mutedList(m, m.member)).toEqual([{ id: m.other.id, timestamp: NOW }]);
    expect(m.drain()).toEqual([]);
  });

  it('a guest restricted by can_access_all_users_group may not mute users they cannot access', async () => {
    const { w, guest, channelmate, stranger } = await accessWorld();
    await setAccessGroup(w, 'role:members');
    expectBadRequest(await doMuteUser(w.ctx, await as(w, guest), { muted_user_id: stranger.id }), 'Insufficient permission');
    must(await doMuteUser(w.ctx, await as(w, guest), { muted_user_id: channelmate.id }));
  });
});
