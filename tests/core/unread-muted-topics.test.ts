/**
 * register's unread_msgs with muted channels and topic policies (the reference's
 * extract_unread_data_from_um_rows and aggregate_unread_data): every unread channel message is
 * listed, but the count and wildcard mentions leave out muted conversations, a muted channel's
 * unmuted and followed topics counting again; update_message_flags details agree.
 */
import { doSubscribe, doUpdateMessageFlags, doUpdateSubscriptionProperties, doUpdateUserTopic } from '@teamchat/core';
import { beforeEach, describe, expect, it } from 'vitest';
import { must } from '../helpers/core.js';
import { eventsOfType } from '../helpers/events.js';
import { applyFlagEvents, normalizedFlagState } from './apply-flag-events.js';
import { queued, register } from './channel-helpers.js';
import { type FlagWorld, flagWorld } from './flag-helpers.js';

const KEYS = JSON.stringify(['message', 'update_message_flags', 'user_topic']);

let f: FlagWorld;
let muted: number;
let ids: Record<string, number>;

const policy = (stream: number, topic: string, value: number) =>
  doUpdateUserTopic(f.w.ctx, f.w.as(f.bob), { stream_id: stream, topic, visibility_policy: value });

beforeEach(async () => {
  f = await flagWorld();
  must(await doSubscribe(f.w.ctx, f.w.as(f.owner), { subscriptions: [{"name":"muted"}], principals: [f.owner.id, f.bob.id] }));
  muted = (await f.w.ctx.storage.read((tx) => tx.streams.byName(f.w.realm.id, 'muted')))!.id;
  must(await doUpdateSubscriptionProperties(f.w.ctx, f.w.as(f.bob), { subscription_data: [{ stream_id: muted, property: 'is_muted', value: true }] }));
  must(await policy(f.general, 'Hushed', 1));
  must(await policy(muted, 'loud', 2));
  must(await policy(muted, 'star', 3));
  ids = {
    lunch: await f.send(f.owner, 'general', 'lunch'),
    hushed: await f.send(f.owner, 'general', 'hushed', '@**all** hi'),
    hushedMention: await f.send(f.owner, 'general', 'HUSHED', '@**Bob Builder** hi'),
    quiet: await f.send(f.owner, 'muted', 'quiet', '@**all** hi'),
    loud: await f.send(f.owner, 'muted', 'loud', '@**all** hi'),
    star: await f.send(f.owner, 'muted', 'Star'),
  };
});

describe('unread_msgs with muted topics', () => {
  it('counts only unmuted conversations and lists wildcard mentions only there; every stream entry is listed, in order', async () => {
    const state = await register(f.w, f.bob, { fetch_event_types: KEYS });
    expect(state.unread_msgs).toEqual({
      count: 3,
      pms: [],
      streams: [
        { stream_id: f.general, topic: 'hushed', unread_message_ids: [ids.hushed!, ids.hushedMention!] },
        { stream_id: f.general, topic: 'lunch', unread_message_ids: [ids.lunch] },
        { stream_id: muted, topic: 'loud', unread_message_ids: [ids.loud] },
        { stream_id: muted, topic: 'quiet', unread_message_ids: [ids.quiet] },
        { stream_id: muted, topic: 'Star', unread_message_ids: [ids.star] },
      ],
      huddles: [],
      // A direct mention counts even in a muted topic (which it does not follow: muting wins).
      mentions: [ids.hushedMention, ids.loud],
      old_unreads_missing: false,
    });
  });

  it('update_message_flags details say where a message becomes unread again, so a client stays equal to a fresh register', async () => {
    const params = { fetch_event_types: KEYS, event_types: KEYS };
    const all = Object.values(ids);
    must(await doUpdateMessageFlags(f.w.ctx, f.w.as(f.bob), { messages: all, op: 'add', flag: 'read' }));
    const before = await register(f.w, f.bob, params);
    must(await doUpdateMessageFlags(f.w.ctx, f.w.as(f.bob), { messages: all, op: 'remove', flag: 'read' }));
    const events = await queued(f.w, f.bob, before.queue_id);
    const details = eventsOfType(events, 'update_message_flags')[0]!.message_details ?? {};
    expect(details[String(ids.hushed)]).toMatchObject({ unmuted_stream_msg: false });
    expect(details[String(ids.hushed)]).not.toHaveProperty('mentioned');
    expect(details[String(ids.hushedMention)]).toMatchObject({ unmuted_stream_msg: false, mentioned: true });
    expect(details[String(ids.loud)]).toMatchObject({ unmuted_stream_msg: true, mentioned: true });
    expect(details[String(ids.star)]).toMatchObject({ unmuted_stream_msg: true });
    const context = { selfId: f.bob.id, mutedStreamIds: new Set([muted]), topicPolicies: before.user_topics };
    expect(normalizedFlagState(applyFlagEvents(before, events, context))).toEqual(normalizedFlagState(await register(f.w, f.bob, params)));
  });
});
