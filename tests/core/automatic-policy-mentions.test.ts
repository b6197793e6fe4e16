/**
 * The other automatic policies: automatically_follow_topics_where_mentioned for mentioned
 * recipients (on send only, as in the reference: an edit that adds a mention follows nothing),
 * and reactions as participation.
 */
import { doAddReaction, doCreateUserGroup, doSendMessage, doUnsubscribe, doUpdateMessage, doUpdateUserTopic } from '@teamchat/core';
import { describe, expect, it } from 'vitest';
import { must } from '../helpers/core.js';
import { automatic, muteChannel, NEVER, ON_INITIATION, ON_PARTICIPATION, ON_SEND, policyOf, sendTo, userTopicEvents } from './automatic-policy-helpers.js';
import { queued, register, subscribe } from './channel-helpers.js';
import { messageWorld } from './message-helpers.js';

describe('following topics where one is mentioned', () => {
  it('follows the topic for each mentioned subscriber, telling only them, even in a channel they muted', async () => {
    const m = await messageWorld();
    const { w, member, other, moderator, admin } = m;
    await automatic(m, member, NEVER, NEVER);
    await muteChannel(m, moderator, m.general);
    const otherQueue = await register(w, other, { event_types: '["user_topic"]' });
    const adminQueue = await register(w, admin, { event_types: '["user_topic"]' });
    m.drain();
    const sent = await sendTo(m, member, 'plans', 'hi @**Otto Other** and @**Mo Moderator**');
    // The sender's own policy did not change, so the answer has no automatic_new_visibility_policy.
    expect(sent).not.toHaveProperty('automatic_new_visibility_policy');
    expect(userTopicEvents(m.drain())).toEqual([
      [[moderator.id], m.general.id, 'plans', 3],
      [[other.id], m.general.id, 'plans', 3],
    ]);
    expect((await queued(w, other, otherQueue.queue_id)).map((e) => e.type)).toEqual(['user_topic']);
    expect(await queued(w, admin, adminQueue.queue_id)).toEqual([]);
    // Mentioned again: already followed, nothing to send.
    await sendTo(m, member, 'plans', '@**Otto Other** again');
    expect(userTopicEvents(m.drain())).toEqual([]);
  });

  it('counts group mentions as the reference does (members get the mentioned flag), but not wildcards or silent mentions', async () => {
    const m = await messageWorld();
    const { w, member, other, moderator } = m;
    await automatic(m, member, NEVER, NEVER);
    must(await doCreateUserGroup(w.ctx, w.as(member), { name: 'crew', description: 'the crew', members: [other.id] }));
    m.drain();
    await sendTo(m, member, 'wild', '@**all** @_**Mo Moderator** hello');
    expect(userTopicEvents(m.drain())).toEqual([]);
    await sendTo(m, member, 'group', '@*crew* hello');
    expect(userTopicEvents(m.drain())).toEqual([[[other.id], m.general.id, 'group', 3]]);
    expect(await policyOf(m, moderator, m.general, 'wild')).toBe(0);
  });

  it('skips users who turned it off, muted the topic, are bots or do not receive the message; never for direct messages', async () => {
    const m = await messageWorld();
    const { w, member, other, moderator, guest, bot, admin } = m;
    await automatic(m, member, NEVER, NEVER);
    await automatic(m, other, ON_INITIATION, ON_SEND, false);
    must(await doUpdateUserTopic(w.ctx, w.as(moderator), { stream_id: m.general.id, topic: 'busy', visibility_policy: 1 }));
    await subscribe(w, member, ['general'], { principals: [bot.id] });
    m.drain();
    await sendTo(m, member, 'busy', '@**Otto Other** @**Mo Moderator** @**Gus Guest** @**Mel Bot**');
    must(await doSendMessage(w.ctx, w.as(member), { type: 'direct', to: JSON.stringify([admin.id]), content: '@**Ada Admin**' }));
    expect(userTopicEvents(m.drain())).toEqual([]);
    expect(await policyOf(m, moderator, m.general, 'busy')).toBe(1);
    expect(await policyOf(m, guest, m.general, 'busy')).toBe(0);
  });

  it('does not follow when an edit adds the mention (the reference follows on send only)', async () => {
    const m = await messageWorld();
    const { w, member, other } = m;
    await automatic(m, member, NEVER, NEVER);
    const { id } = (await sendTo(m, member, 'edited', 'no mention yet')) as { id: number };
    m.drain();
    must(await doUpdateMessage(w.ctx, w.as(member), { message_id: id, content: 'now @**Otto Other**' }));
    expect(userTopicEvents(m.drain())).toEqual([]);
    expect(await policyOf(m, other, m.general, 'edited')).toBe(0);
  });
});

describe('reactions as participation', () => {
  it('follow (or, in a muted channel, unmute) the topic for a subscribed reactor whose setting is on participation', async () => {
    const m = await messageWorld();
    const { w, admin, member, other, moderator } = m;
    await automatic(m, member, ON_PARTICIPATION, NEVER);
    await automatic(m, other, NEVER, ON_PARTICIPATION);
    await muteChannel(m, other, m.general);
    const { id } = (await sendTo(m, admin, 'party')) as { id: number };
    const memberQueue = await register(w, member, { event_types: '["user_topic", "reaction"]' });
    m.drain();
    const react = (user: typeof member, name: string) => doAddReaction(w.ctx, w.as(user), { message_id: id, emoji_name: name });
    must(await react(member, 'smile'));
    must(await react(other, 'smile'));
    // The defaults (on initiation, unmute on send) ignore reactions.
    must(await react(moderator, 'smile'));
    expect(userTopicEvents(m.drain())).toEqual([
      [[member.id], m.general.id, 'party', 3],
      [[other.id], m.general.id, 'party', 2],
    ]);
    // The new policy is announced before the reaction; a second reaction changes nothing.
    expect((await queued(w, member, memberQueue.queue_id)).map((e) => e.type)).toEqual(['user_topic', 'reaction', 'reaction', 'reaction']);
    must(await react(member, 'heart'));
    expect(userTopicEvents(m.drain())).toEqual([]);
  });

  it('change nothing for reactors not subscribed, bots, "never", followed topics and direct messages', async () => {
    const m = await messageWorld();
    const { w, admin, member, other, moderator } = m;
    const { id } = (await sendTo(m, admin, 'party')) as { id: number };
    const dm = (must(await doSendMessage(w.ctx, w.as(admin), { type: 'direct', to: JSON.stringify([member.id]), content: 'hi' }))).id;
    await automatic(m, member, ON_PARTICIPATION, ON_PARTICIPATION);
    await automatic(m, other, ON_PARTICIPATION, NEVER);
    await automatic(m, moderator, NEVER, NEVER);
    must(await doUpdateUserTopic(w.ctx, w.as(other), { stream_id: m.general.id, topic: 'party', visibility_policy: 3 }));
    // The member leaves the channel but can still read its public history and react.
    must(await doUnsubscribe(w.ctx, w.as(member), { subscriptions: ["general"] }));
    m.drain();
    must(await doAddReaction(w.ctx, w.as(member), { message_id: id, emoji_name: 'smile' }));
    must(await doAddReaction(w.ctx, w.as(member), { message_id: dm, emoji_name: 'smile' }));
    must(await doAddReaction(w.ctx, w.as(other), { message_id: id, emoji_name: 'smile' }));
    must(await doAddReaction(w.ctx, w.as(moderator), { message_id: id, emoji_name: 'smile' }));
    expect(userTopicEvents(m.drain())).toEqual([]);
    expect(await policyOf(m, other, m.general, 'party')).toBe(3);
  });
});
