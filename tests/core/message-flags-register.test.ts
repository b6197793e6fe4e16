/**
 * Register and flags: `unread_msgs` and `starred_messages` plus the update_message_flags events a
 * queue receives equal a fresh register (the reference's verify_action), for every flag action.
 */
import {
  doMarkAllAsRead,
  doMarkStreamAsRead,
  doMarkTopicAsRead,
  doSubscribe,
  doUpdateMessageFlags,
  doUpdateMessageFlagsForNarrow,
  doUpdateSubscriptionProperties,
  type User,
} from '@teamchat/core';
import { beforeEach, describe, expect, it } from 'vitest';
import { must } from '../helpers/core.js';
import { applyFlagEvents, normalizedFlagState } from './apply-flag-events.js';
import { queued, register } from './channel-helpers.js';
import { type FlagWorld, flagWorld } from './flag-helpers.js';

const KEYS = JSON.stringify(['message', 'update_message_flags', 'starred_messages']);
const VARIANTS = ['{}', '{"empty_topic_name": true}'];

let f: FlagWorld;
let m: Awaited<ReturnType<typeof seed>>;

const seed = async () => ({
  lobbyOld: await f.send(f.owner, 'lobby', 'history'),
  lunch: await f.send(f.owner, 'general', 'lunch', 'hi @**Bob Builder**'),
  lunch2: await f.send(f.cat, 'general', 'Lunch'),
  empty: await f.send(f.owner, 'general', ''),
  wildcard: await f.send(f.owner, 'general', 'all', '@**all** hi'),
  mutedPlain: await f.send(f.owner, 'muted', 'quiet'),
  mutedWildcard: await f.send(f.owner, 'muted', 'quiet', '@**all** hi'),
  mutedMention: await f.send(f.owner, 'muted', 'quiet', '@**Bob Builder** hi'),
  direct: await f.dm(f.owner, [f.bob]),
  group: await f.dm(f.cat, [f.bob, f.owner]),
  self: await f.dm(f.bob, [f.bob]),
  lobby: await f.send(f.owner, 'lobby', 'news'),
});

beforeEach(async () => {
  f = await flagWorld();
  must(await doSubscribe(f.w.ctx, f.w.as(f.bob), { subscriptions: [{"name":"muted"}] }));
  const muted = (await f.w.ctx.storage.read((tx) => tx.streams.byName(f.w.realm.id, 'muted')))!.id;
  must(await doUpdateSubscriptionProperties(f.w.ctx, f.w.as(f.bob), { subscription_data: [{ stream_id: muted, property: 'is_muted', value: true }] }));
  m = await seed();
  // Bob's own message to himself starts read; make everything start unread but one.
  must(await doUpdateMessageFlags(f.w.ctx, f.w.as(f.bob), { messages: [m.self], op: 'remove', flag: 'read' }));
  must(await doUpdateMessageFlags(f.w.ctx, f.w.as(f.bob), { messages: [m.lunch2], op: 'add', flag: 'read' }));
  // He joins the lobby after its first message: its history is his to flag.
  must(await doSubscribe(f.w.ctx, f.w.as(f.bob), { subscriptions: [{"name":"lobby"}] }));
});

async function verify(user: User, action: () => Promise<unknown>): Promise<void> {
  const muted = new Set<number>();
  for (const sub of await f.w.ctx.storage.read((tx) => tx.subscriptions.forUser(f.w.realm.id, user.id))) if (sub.isMuted) muted.add(sub.streamId);
  const before = [];
  for (const capabilities of VARIANTS) {
    const params = { fetch_event_types: KEYS, event_types: KEYS, client_capabilities: capabilities };
    before.push({ params, snapshot: await register(f.w, user, params) });
  }
  must((await action()) as never);
  for (const { params, snapshot } of before) {
    const events = await queued(f.w, user, snapshot.queue_id);
    expect(events.length).toBeGreaterThan(0);
    const applied = applyFlagEvents(snapshot, events, { selfId: user.id, mutedStreamIds: muted, topicPolicies: await policiesOf(user) });
    const fresh = await register(f.w, user, params);
    expect(normalizedFlagState(applied)).toEqual(normalizedFlagState(fresh));
  }
}

/** The user's topic policies as register lists them (mentions made Bob follow some topics). */
const policiesOf = async (user: User) =>
  (await f.w.ctx.storage.read((tx) => tx.userTopics.list(f.w.realm.id, user.id))).map((r) => ({ stream_id: r.streamId, topic_name: r.topic, visibility_policy: r.visibilityPolicy }));

const flags = (messages: number[], op: string, flag: string) => () =>
  doUpdateMessageFlags(f.w.ctx, f.w.as(f.bob), { messages: messages, op, flag });
const all = () => Object.values(m);

describe('verify_action: snapshot + update_message_flags events = fresh snapshot', () => {
  it('marking messages read and unread', async () => {
    await verify(f.bob, flags([m.lunch, m.empty, m.mutedWildcard, m.direct, m.group], 'add', 'read'));
    await verify(f.bob, flags(all(), 'add', 'read'));
    await verify(f.bob, flags(all(), 'remove', 'read'));
    await verify(f.bob, flags([m.lunch2, m.mutedMention, m.self], 'add', 'read'));
    await verify(f.bob, flags([m.mutedMention, m.lunch2, m.self, m.lobbyOld], 'remove', 'read'));
  });

  it('starring and unstarring, including a message he never received', async () => {
    await verify(f.bob, flags([m.lunch, m.lobbyOld, m.direct], 'add', 'starred'));
    await verify(f.bob, flags([m.lobbyOld], 'remove', 'starred'));
  });

  it('the narrow endpoint', async () => {
    const narrow = (input: Record<string, string>) => () =>
      doUpdateMessageFlagsForNarrow.fromTransport(f.w.ctx, f.w.as(f.bob), { anchor: 'newest', num_before: 100, num_after: 0, narrow: [], ...input });
    await verify(f.bob, narrow({ op: 'add', flag: 'read', narrow: '[["is","unread"],["channel","general"]]' }));
    await verify(f.bob, narrow({ op: 'remove', flag: 'read', narrow: '[["channels","public"]]' }));
    await verify(f.bob, narrow({ op: 'add', flag: 'read', narrow: '[["is","dm"]]' }));
    await verify(f.bob, narrow({ op: 'remove', flag: 'read', narrow: `[["dm-including",${f.cat.id}]]` }));
    await verify(f.bob, narrow({ op: 'add', flag: 'starred', narrow: '[["is","mentioned"]]' }));
  });

  it('the mark-as-read endpoints', async () => {
    await verify(f.bob, () => doMarkTopicAsRead(f.w.ctx, f.w.as(f.bob), { stream_id: f.general, topic_name: 'general chat' }));
    await verify(f.bob, () => doMarkTopicAsRead(f.w.ctx, f.w.as(f.bob), { stream_id: f.general, topic_name: 'LUNCH' }));
    await verify(f.bob, () => doMarkStreamAsRead(f.w.ctx, f.w.as(f.bob), { stream_id: f.general }));
    await verify(f.bob, () => doMarkAllAsRead(f.w.ctx, f.w.as(f.bob), {}));
  });

  it('for another viewer with a different history', async () => {
    await verify(f.cat, () => doUpdateMessageFlags(f.w.ctx, f.w.as(f.cat), { messages: [m.lunch, m.group], op: 'add', flag: 'read' }));
    await verify(f.cat, () => doMarkAllAsRead(f.w.ctx, f.w.as(f.cat), {}));
    await verify(f.cat, () => doUpdateMessageFlags(f.w.ctx, f.w.as(f.cat), { messages: [m.lunch, m.group, m.lunch2], op: 'remove', flag: 'read' }));
  });
});

it('register lists starred messages and unread messages as the flags say', async () => {
  must(await doUpdateMessageFlags(f.w.ctx, f.w.as(f.bob), { messages: [m.lobbyOld, m.lunch], op: 'add', flag: 'starred' }));
  const state = await register(f.w, f.bob, { fetch_event_types: KEYS });
  expect(state.starred_messages).toEqual([m.lobbyOld, m.lunch]);
  // Being mentioned made Bob follow general/lunch and muted/quiet (the reference's default
  // automatically_follow_topics_where_mentioned), so the muted channel's "quiet" counts.
  expect(state.unread_msgs).toEqual({
    count: 9,
    pms: [
      { other_user_id: f.owner.id, sender_id: f.owner.id, unread_message_ids: [m.direct] },
      { other_user_id: f.bob.id, sender_id: f.bob.id, unread_message_ids: [m.self] },
    ],
    streams: [
      { stream_id: f.general, topic: 'all', unread_message_ids: [m.wildcard] },
      { stream_id: f.general, topic: 'general chat', unread_message_ids: [m.empty] },
      { stream_id: f.general, topic: 'lunch', unread_message_ids: [m.lunch] },
      { stream_id: expect.any(Number), topic: 'quiet', unread_message_ids: [m.mutedPlain, m.mutedWildcard, m.mutedMention] },
    ],
    huddles: [{ user_ids_string: [f.owner.id, f.bob.id, f.cat.id].sort((a, b) => a - b).join(','), unread_message_ids: [m.group] }],
    mentions: [m.lunch, m.wildcard, m.mutedWildcard, m.mutedMention],
    old_unreads_missing: false,
  });
  // Only the user's own stars, and only on request.
  expect((await register(f.w, f.cat, { fetch_event_types: KEYS })).starred_messages).toEqual([]);
  expect(await register(f.w, f.bob, { fetch_event_types: '["message"]' })).not.toHaveProperty('starred_messages');
});
