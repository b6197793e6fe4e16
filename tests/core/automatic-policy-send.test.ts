/**
 * Automatic topic visibility on send (the reference's do_send_messages and
 * visibility_policy_for_send_message): the sender's automatically_follow_topics_policy and
 * automatically_unmute_topics_in_muted_streams_policy, and POST /messages'
 * automatic_new_visibility_policy.
 */
import { doSendMessage, doSubscribe, doUpdateSettings, doUpdateUserTopic, sendNotificationBotMessageNow } from '@teamchat/core/internal';
import { describe, expect, it } from 'vitest';
import { must } from '../helpers/core.js';
import { automatic, muteChannel, NEVER, ON_INITIATION, ON_PARTICIPATION, ON_SEND, policyOf, sendTo, userTopicEvents } from './automatic-policy-helpers.js';
import { queued, register, subscribe } from './channel-helpers.js';
import { expectBadRequest, T0 } from './fixtures.js';
import { messageWorld } from './message-helpers.js';

const NOW = Math.floor(T0 / 1000);

describe('following on send', () => {
  it('by default follows the topic its sender starts, answers 3 once and tells only the sender, before the message', async () => {
    const m = await messageWorld();
    const { w, member, other } = m;
    const queue = await register(w, member, {});
    const otherQueue = await register(w, other, { event_types: '["user_topic", "message"]' });
    const first = await sendTo(m, member, 'Lunch');
    expect(first).toEqual({ id: expect.any(Number), message_url: expect.any(String), message_link: expect.any(String), automatic_new_visibility_policy: 3 });
    expect(userTopicEvents(m.drain())).toEqual([[[member.id], m.general.id, 'Lunch', 3]]);
    const events = (await queued(w, member, queue.queue_id)).filter((e) => e.type !== 'stream');
    expect(events.map(({ id: _id, ...e }) => (e.type === 'message' ? e.type : e))).toEqual([
      { type: 'user_topic', stream_id: m.general.id, topic_name: 'Lunch', last_updated: NOW, visibility_policy: 3 },
      { type: 'muted_topics', muted_topics: [] },
      'message',
    ]);
    expect((await queued(w, other, otherQueue.queue_id)).map((e) => e.type)).toEqual(['message']);
    expect(await policyOf(m, member, m.general, 'lunch')).toBe(3);

    // The sender's next message changes nothing; another user joining the topic did not start it.
    expect(await sendTo(m, member, 'lunch')).not.toHaveProperty('automatic_new_visibility_policy');
    expect(await sendTo(m, other, 'LUNCH')).not.toHaveProperty('automatic_new_visibility_policy');
    expect(userTopicEvents(m.drain())).toEqual([]);
    expect(await policyOf(m, other, m.general, 'lunch')).toBe(0);
  });

  it('follows on every send (2) and on participation (1), but never downgrades or repeats', async () => {
    const m = await messageWorld();
    const { member, other, admin } = m;
    await sendTo(m, admin, 'plans');
    await automatic(m, member, ON_SEND, NEVER);
    await automatic(m, other, ON_PARTICIPATION, NEVER);
    m.drain();
    expect((await sendTo(m, member, 'plans')).automatic_new_visibility_policy).toBe(3);
    expect((await sendTo(m, other, 'plans')).automatic_new_visibility_policy).toBe(3);
    expect(await sendTo(m, member, 'plans')).not.toHaveProperty('automatic_new_visibility_policy');
    expect(userTopicEvents(m.drain())).toEqual([
      [[member.id], m.general.id, 'plans', 3],
      [[other.id], m.general.id, 'plans', 3],
    ]);
  });

  it('follows a topic the sender muted when the setting asks for it on send', async () => {
    const m = await messageWorld();
    const { member } = m;
    await automatic(m, member, ON_SEND, NEVER);
    must(await doUpdateUserTopic(m.w.ctx, m.w.as(member), { stream_id: m.general.id, topic: 'noise', visibility_policy: 1 }));
    expect((await sendTo(m, member, 'noise')).automatic_new_visibility_policy).toBe(3);
    expect(await policyOf(m, member, m.general, 'noise')).toBe(3);
  });

  it('counts as initiation only what the sender could see: earlier copies, where history is protected', async () => {
    const m = await messageWorld();
    const { w, admin, member, other } = m;
    must(await doSubscribe(w.ctx, w.as(admin), { subscriptions: [{"name":"vault"}], invite_only: true, history_public_to_subscribers: false }));
    await sendTo(m, admin, 'old', 'before you came', 'vault');
    await subscribe(w, admin, ['vault'], { principals: [member.id] });
    // A public channel's history is readable: its existing topic is not started by someone new to it.
    await sendTo(m, admin, 'public old', 'hi', 'general');
    expect((await sendTo(m, member, 'old', 'hello', 'vault')).automatic_new_visibility_policy).toBe(3);
    expect(await sendTo(m, other, 'public old')).not.toHaveProperty('automatic_new_visibility_policy');
  });

  it('does nothing for the "never" settings, for bots, the Notification Bot and direct messages', async () => {
    const m = await messageWorld();
    const { w, member, other, bot } = m;
    await automatic(m, member, NEVER, NEVER);
    await muteChannel(m, member, m.general);
    await subscribe(w, member, ['general'], { principals: [bot.id] });
    m.drain();
    expect(await sendTo(m, member, 'new topic')).not.toHaveProperty('automatic_new_visibility_policy');
    expect(await sendTo(m, bot, 'bot topic')).not.toHaveProperty('automatic_new_visibility_policy');
    const notice = must(await sendNotificationBotMessageNow(w.ctx, w.realm, { to: { channelId: m.general.id, topic: 'notice topic' }, content: 'hi' }));
    expect(notice).not.toHaveProperty('automatic_new_visibility_policy');
    const dm = must(await doSendMessage(w.ctx, w.as(other), { type: 'direct', to: JSON.stringify([member.id]), content: 'psst' }));
    expect(dm).not.toHaveProperty('automatic_new_visibility_policy');
    expect(userTopicEvents(m.drain())).toEqual([]);
    expect(await w.ctx.storage.read((tx) => tx.userTopics.list(w.realm.id, bot.id))).toEqual([]);
  });
});

describe('unmuting in muted channels', () => {
  it('unmutes on send by default (2), answers 2, and follows instead when the follow setting also applies', async () => {
    const m = await messageWorld();
    const { member, admin, other } = m;
    await sendTo(m, admin, 'quiet');
    await muteChannel(m, member, m.general);
    await muteChannel(m, other, m.general);
    m.drain();
    expect((await sendTo(m, member, 'quiet')).automatic_new_visibility_policy).toBe(2);
    expect(await sendTo(m, member, 'quiet')).not.toHaveProperty('automatic_new_visibility_policy');
    // A new topic in a muted channel: initiation follows, which wins over unmuting.
    expect((await sendTo(m, other, 'brand new')).automatic_new_visibility_policy).toBe(3);
    expect(userTopicEvents(m.drain())).toEqual([
      [[member.id], m.general.id, 'quiet', 2],
      [[other.id], m.general.id, 'brand new', 3],
    ]);
  });

  it('unmutes a muted topic of a muted channel, keeps a followed one, and leaves unmuted channels alone', async () => {
    const m = await messageWorld();
    const { member, other } = m;
    await automatic(m, member, NEVER, ON_SEND);
    await automatic(m, other, NEVER, ON_SEND);
    await muteChannel(m, member, m.general);
    const set = (topic: string, policy: number) => doUpdateUserTopic(m.w.ctx, m.w.as(member), { stream_id: m.general.id, topic, visibility_policy: policy });
    must(await set('muted', 1));
    must(await set('followed', 3));
    m.drain();
    expect((await sendTo(m, member, 'muted')).automatic_new_visibility_policy).toBe(2);
    expect(await sendTo(m, member, 'followed')).not.toHaveProperty('automatic_new_visibility_policy');
    expect(await sendTo(m, other, 'anything')).not.toHaveProperty('automatic_new_visibility_policy');
    expect(await policyOf(m, member, m.general, 'followed')).toBe(3);
    expect(userTopicEvents(m.drain())).toEqual([[[member.id], m.general.id, 'muted', 2]]);
  });

  it('unmutes on initiation only the topics the sender starts', async () => {
    const m = await messageWorld();
    const { member, admin } = m;
    await automatic(m, member, NEVER, ON_INITIATION);
    await muteChannel(m, member, m.general);
    await sendTo(m, admin, 'existing');
    expect(await sendTo(m, member, 'existing')).not.toHaveProperty('automatic_new_visibility_policy');
    expect((await sendTo(m, member, 'fresh')).automatic_new_visibility_policy).toBe(2);
  });
});

describe('the settings', () => {
  it('refuses values outside 1–4, changing nothing', async () => {
    const m = await messageWorld();
    const { member } = m;
    for (const value of ['0', '5', '"2"', 'x']) {
      for (const name of ['automatically_follow_topics_policy', 'automatically_unmute_topics_in_muted_streams_policy']) {
        const result = await doUpdateSettings(m.w.ctx, m.w.as(member), { [name]: value });
        expect(result.isErr()).toBe(true);
      }
    }
    expectBadRequest(await doUpdateSettings.fromTransport(m.w.ctx, m.w.as(member), { automatically_follow_topics_where_mentioned: 'yes' }), 'automatically_follow_topics_where_mentioned is not valid JSON');
    expect((await sendTo(m, member, 'still default')).automatic_new_visibility_policy).toBe(3);
  });
});
