/**
 * The visibility guarantee: a user never receives a message of a private channel or direct
 * conversation they are not part of (nor a guest a public channel they are not subscribed to),
 * through GET /messages, GET /messages/{id}, message_ids, matches_narrow, message events or
 * unread_msgs. Plus verify_action: register's max_message_id / unread_msgs / alert_words with
 * the events applied equal a fresh register.
 */
import { doAddAlertWords, doDeactivateUser, doRegister, doSubscribe, doUpdateUser, getMatchesNarrow, getMessage, getMessages, ROLE, type User } from '@teamchat/core';
import { eventsOfType, QUEUE_OPTIONS } from '../helpers/events.js';
import type { LooseQueuedEvent as QueuedEvent } from '../helpers/events.js';
import { describe, expect, it } from 'vitest';
import { must } from '../helpers/core.js';
import { queued, register, type Snapshot } from './channel-helpers.js';
import { expectBadRequest, expectError } from './fixtures.js';
import { messageWorld } from './message-helpers.js';

const setup = async () => {
  const m = await messageWorld();
  const { admin, member, other, guest } = m;
  // Every user's queue, registered before anything is sent; the owner's takes all public channels.
  const queues = new Map<number, string>();
  for (const user of [m.w.owner, admin, member, other, guest, m.moderator]) {
    const params = user === m.w.owner ? { event_types: '["message"]', all_public_streams: 'true' } : { event_types: '["message"]' };
    queues.set(user.id, (await register(m.w, user, params)).queue_id);
  }
  const general = await m.post(other, 'public words', 'open');
  const secret = await m.post(admin, 'secret words', 'hidden', 'secret');
  const dm = await m.send(admin, { type: 'direct', to: `[${member.id}]`, content: 'dm words' });
  const group = await m.send(member, { type: 'direct', to: `[${admin.id}, ${guest.id}]`, content: 'group words' });
  const all = { general, secret, dm, group };
  /** Who is part of each message. */
  const parties: Record<keyof typeof all, User[]> = {
    general: [m.w.owner, admin, m.moderator, member, other],
    secret: [admin, member],
    dm: [admin, member],
    group: [admin, member, guest],
  };
  return { m, queues, all, parties };
};

describe('message visibility', () => {
  it('holds for every user through every read endpoint', async () => {
    const { m, all, parties } = await setup();
    for (const user of [m.w.owner, m.admin, m.moderator, m.member, m.other, m.guest]) {
      const expected = (Object.keys(all) as (keyof typeof all)[]).filter((k) => parties[k].includes(user)).map((k) => all[k]);
      const hidden = Object.values(all).filter((id) => !expected.includes(id));
      expect(await m.fetchIds(user, [])).toEqual(expected);
      expect(await m.fetchIds(user, [['search', 'words']])).toEqual(expected);
      const publicHistory = user === m.guest ? [] : [all.general];
      expect(await m.fetchIds(user, [['channels', 'public']])).toEqual(expect.arrayContaining(publicHistory));
      expect((await m.fetchIds(user, [['channels', 'public']])).filter((id) => hidden.includes(id))).toEqual([]);
      const byIds = must(await getMessages(m.w.ctx, m.w.as(user), { message_ids: Object.values(all) })) as { messages: Array<{ id: number }> };
      expect(byIds.messages.map((x) => x.id)).toEqual(expected);
      const matches = must(await getMatchesNarrow(m.w.ctx, m.w.as(user), { msg_ids: Object.values(all), narrow: [] }));
      expect(Object.keys(matches.messages).map(Number)).toEqual(expected);
      for (const id of hidden) expectBadRequest(await getMessage(m.w.ctx, m.w.as(user), { message_id: id }), 'Invalid message(s)');
      for (const id of expected) expect((await getMessage(m.w.ctx, m.w.as(user), { message_id: id })).isOk()).toBe(true);
    }
    // Narrowing to what one may not read is refused or empty, never a leak.
    expectError(await getMessages(m.w.ctx, m.w.as(m.other), { anchor: 'newest', num_before: 5, num_after: 0, narrow: [["channel",m.secret.id]] }), 'BAD_NARROW', 'Invalid narrow operator: unknown channel');
    expect(await m.fetchIds(m.other, [['dm-including', m.admin.id]])).toEqual([]);
    expect(await m.fetchIds(m.other, [['with', all.dm]])).toEqual([]);
    expect(await m.fetchIds(m.other, [['id', all.secret]])).toEqual([]);
    expect(await m.fetchIds(m.guest, [['channel', 'general']]).catch(() => 'refused')).toEqual('refused');
  });

  it('holds for message events, all_public_streams included', async () => {
    const { m, queues, all, parties } = await setup();
    for (const user of [m.w.owner, m.admin, m.moderator, m.member, m.other, m.guest]) {
      const got = (await queued(m.w, user, queues.get(user.id)!)).map((e) => (e.message as { id: number }).id);
      const expected = (Object.keys(all) as (keyof typeof all)[]).filter((k) => parties[k].includes(user)).map((k) => all[k]);
      expect(got).toEqual(expected);
    }
    // A public channel message reaches all_public_streams queues of non-subscribers, with no flags.
    const outsider = await m.w.addUser({ email: 'out@example.com', fullName: 'Out Sider' });
    const watcher = (await register(m.w, outsider, { event_types: '["message"]', all_public_streams: 'true' })).queue_id;
    const plain = (await register(m.w, outsider, { event_types: '["message"]' })).queue_id;
    const id = await m.post(m.other, 'for everyone');
    await m.post(m.admin, 'not for outsiders', 'x', 'secret');
    expect((await queued(m.w, outsider, watcher)).map(({ id: _id, ...e }) => e)).toMatchObject([{ type: 'message', flags: [], message: { id } }]);
    expect(Object.keys((await queued(m.w, outsider, watcher))[0]!).sort()).toEqual(['flags', 'id', 'message', 'type']);
    expect(await queued(m.w, outsider, plain)).toEqual([]);
    // Guests may not register for all public channels.
    expectBadRequest(await doRegister(m.w.ctx, m.w.as(m.guest), { all_public_streams: true }), 'User not authorized for this query');
  });

  it('reaches the all_public_streams queues of the moment it is sent, one copy each, none while their user is a guest', async () => {
    const m = await messageWorld();
    const watcher = await m.w.addUser({ email: 'watch@example.com', fullName: 'Wat Cher' });
    const watching = (await register(m.w, watcher, { event_types: '["message"]', all_public_streams: 'true' })).queue_id;
    // A subscriber's all_public_streams queue gets its own copy, with its flags, and no second one.
    const subscriber = (await register(m.w, m.member, { event_types: '["message"]', all_public_streams: 'true' })).queue_id;
    // Another realm's all_public_streams queue gets nothing of this realm.
    const foreign = m.w.ctx.queues.create(m.w.realm.id + 1, watcher.id + 1000, { ...QUEUE_OPTIONS, allPublicStreams: true });
    const first = await m.post(m.other, 'one');
    must(await doUpdateUser(m.w.ctx, m.w.as(m.w.owner), { user_id: watcher.id, role: ROLE.guest }));
    const second = await m.post(m.other, 'two');
    must(await doUpdateUser(m.w.ctx, m.w.as(m.w.owner), { user_id: watcher.id, role: ROLE.member }));
    const third = await m.post(m.other, 'three');
    await m.post(m.admin, 'not for outsiders', 'x', 'secret');
    const messages = (events: QueuedEvent[]) => eventsOfType(events, 'message').map((e) => [e.message.id, e.flags] as const);
    expect(messages(await queued(m.w, watcher, watching))).toEqual([[first, []], [third, []]]);
    expect(messages(await queued(m.w, m.member, subscriber)).filter(([id]) => [first, second, third].includes(id))).toEqual([
      [first, []],
      [second, []],
      [third, []],
    ]);
    expect(foreign.isEmpty).toBe(true);
    // A queue registered after the send (its snapshot already has the message) does not get it.
    const late = (await register(m.w, watcher, { event_types: '["message"]', all_public_streams: 'true' })).queue_id;
    expect(await queued(m.w, watcher, late)).toEqual([]);
    // A deactivated user's queues are gone, all_public_streams ones included.
    must(await doDeactivateUser(m.w.ctx, m.w.as(m.w.owner), { user_id: watcher.id }));
    await m.post(m.other, 'four');
    expect(m.w.ctx.queues.userQueues(watcher.id)).toEqual([]);
  });

  it('keeps a private channel\'s earlier history from new subscribers when it is not shared', async () => {
    const m = await messageWorld();
    must(await doSubscribe(m.w.ctx, m.w.as(m.admin), { subscriptions: [{"name":"vault"}], invite_only: true, history_public_to_subscribers: false }));
    const before = await m.post(m.admin, 'before', 't', 'vault');
    must(await doSubscribe(m.w.ctx, m.w.as(m.admin), { subscriptions: [{"name":"vault"}], principals: [m.member.id] }));
    const after = await m.post(m.admin, 'after', 't', 'vault');
    expect(await m.fetchIds(m.member, [['channel', 'vault']])).toEqual([after]);
    expectBadRequest(await getMessage(m.w.ctx, m.w.as(m.member), { message_id: before }), 'Invalid message(s)');
    expect(await m.fetchIds(m.admin, [['channel', 'vault']])).toEqual([before, after]);
  });
});

/** Applies message and alert_words events to a register snapshot, as a client does (SHAPES.md 2.7). */
function applyEvents(state: Snapshot, events: readonly QueuedEvent[], self: number): Snapshot {
  const next = structuredClone(state);
  for (const event of events) {
    if (event.type === 'alert_words') next.alert_words = event.alert_words;
    if (event.type !== 'message') continue;
    const message = event.message;
    const flags = event.flags;
    next.max_message_id = Math.max(next.max_message_id, message.id);
    if (flags.includes('read')) continue;
    const unread = next.unread_msgs;
    unread.count++;
    if (message.type === 'stream') {
      let entry = unread.streams.find((s: { stream_id: number; topic: string }) => s.stream_id === message.stream_id && s.topic === message.subject);
      if (!entry) unread.streams.push((entry = { stream_id: message.stream_id, topic: message.subject, unread_message_ids: [] }));
      entry.unread_message_ids.push(message.id);
    } else {
      const ids = (message.display_recipient as Array<{ id: number }>).map((p) => p.id).sort((a, b) => a - b);
      if (ids.length <= 2) {
        const otherId = ids.find((id) => id !== self) ?? self;
        let entry = unread.pms.find((p: { other_user_id: number }) => p.other_user_id === otherId);
        if (!entry) unread.pms.push((entry = { other_user_id: otherId, sender_id: otherId, unread_message_ids: [] }));
        entry.unread_message_ids.push(message.id);
      } else {
        const key = ids.join(',');
        let entry = unread.huddles.find((h: { user_ids_string: string }) => h.user_ids_string === key);
        if (!entry) unread.huddles.push((entry = { user_ids_string: key, unread_message_ids: [] }));
        entry.unread_message_ids.push(message.id);
      }
    }
    if (flags.includes('mentioned') || flags.includes('wildcard_mentioned')) unread.mentions.push(message.id);
  }
  // The reference keeps raw unread data and aggregates it on every fetch, in key order.
  const text = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  next.unread_msgs.streams.sort((a: { stream_id: number; topic: string }, b: { stream_id: number; topic: string }) => a.stream_id - b.stream_id || text(a.topic.toLowerCase(), b.topic.toLowerCase()));
  next.unread_msgs.pms.sort((a: { other_user_id: number }, b: { other_user_id: number }) => a.other_user_id - b.other_user_id);
  next.unread_msgs.huddles.sort((a: { user_ids_string: string }, b: { user_ids_string: string }) => text(a.user_ids_string, b.user_ids_string));
  return next;
}

describe('verify_action: max_message_id, unread_msgs and alert_words', () => {
  it('the snapshot plus the events equals a fresh register, for every viewer', async () => {
    const m = await messageWorld();
    const { admin, member, other, guest } = m;
    const fetch = '["message","update_message_flags","alert_words"]';
    const viewers = [m.w.owner, admin, member, other, guest];
    const before = new Map<number, { snapshot: Snapshot; queue: string }>();
    for (const user of viewers) {
      const snapshot = await register(m.w, user, { fetch_event_types: fetch, event_types: fetch });
      before.set(user.id, { snapshot, queue: snapshot.queue_id });
    }
    must(await doAddAlertWords(m.w.ctx, m.w.as(member), { alert_words: ["soup"] }));
    await m.post(other, 'soup for @**Mel Member**', 'lunch');
    await m.post(admin, 'hello @**all**', 'lunch');
    await m.post(member, 'my own words', 'lunch');
    await m.post(other, 'no topic', '');
    await m.post(admin, 'hidden', 'vault', 'secret');
    await m.send(admin, { type: 'direct', to: `[${member.id}]`, content: 'one to one' });
    await m.send(member, { type: 'direct', to: `[${member.id}]`, content: 'note to self' });
    await m.send(guest, { type: 'direct', to: `[${member.id}, ${admin.id}]`, content: 'group' });
    for (const user of viewers) {
      const { snapshot, queue } = before.get(user.id)!;
      const events = await queued(m.w, user, queue);
      const fresh = await register(m.w, user, { fetch_event_types: fetch });
      const pick = (s: Snapshot) => ({ max_message_id: s.max_message_id, unread_msgs: s.unread_msgs, alert_words: s.alert_words });
      expect(pick(applyEvents(snapshot, events, user.id))).toEqual(pick(fresh));
      if (user === member) {
        expect(fresh.unread_msgs).toMatchObject({ count: 6, mentions: expect.arrayContaining([expect.any(Number)]) });
        expect(fresh.alert_words).toEqual(['soup']);
      }
    }
  });
});
