/**
 * Automatic topic visibility on moves (the reference's do_update_message and
 * apply_automatic_unmute_follow_topics_policy): a move that does not take the whole topic, and
 * makes the target message the first of its new topic as its sender sees it, follows (or, in a
 * muted channel, unmutes) that topic for the sender whose settings say "on initiation".
 */
import { doSubscribe, doUpdateMessage, doUpdateSettings, doUpdateSubscriptionProperties, doUpdateUserTopic, sendNotificationBotMessageNow, type User } from '@teamchat/core/internal';
import { describe, expect, it } from 'vitest';
import { must } from '../helpers/core.js';
import { NEVER, ON_INITIATION, ON_PARTICIPATION, ON_SEND, userTopicEvents } from './automatic-policy-helpers.js';
import { editWorld } from './message-edit-helpers.js';

type E = Awaited<ReturnType<typeof editWorld>>;

const automatic = async (e: E, user: User, follow: number, unmute: number) =>
  must(
    await doUpdateSettings(e.w.ctx, e.w.as(user), {
      automatically_follow_topics_policy: follow,
      automatically_unmute_topics_in_muted_streams_policy: unmute,
    }),
  );
const muteChannel = async (e: E, user: User, streamId: number) =>
  must(await doUpdateSubscriptionProperties(e.w.ctx, e.w.as(user), { subscription_data: [{ stream_id: streamId, property: 'is_muted', value: true }] }));
const setPolicy = async (e: E, user: User, streamId: number, topic: string, policy: number) =>
  must(await doUpdateUserTopic(e.w.ctx, e.w.as(user), { stream_id: streamId, topic, visibility_policy: policy }));
const move = (e: E, mover: User, id: number, input: Record<string, string>) => doUpdateMessage(e.w.ctx, e.w.as(mover), { message_id: id, ...input });
const policyOf = async (e: E, user: User, streamId: number, topic: string) =>
  (await e.w.ctx.storage.read((tx) => tx.userTopics.forTopic(e.w.realm.id, streamId, topic))).find((r) => r.userId === user.id)?.visibilityPolicy ?? 0;

/** A topic with a message by the owner and then one by `sender` (returned), and nothing published since. */
async function twoMessageTopic(e: E, sender: User, channel = 'general', topic = 'lunch'): Promise<number> {
  await e.send(e.owner, channel, topic);
  const id = await e.send(sender, channel, topic);
  e.drain();
  return id;
}

describe('following when a move starts a topic', () => {
  it('by default follows the new topic for the moved message\'s sender only, with one user_topic event to them', async () => {
    const e = await editWorld();
    const id = await twoMessageTopic(e, e.alice);
    must(await move(e, e.owner, id, { topic: 'fresh', propagate_mode: 'change_one' }));
    expect(userTopicEvents(e.drain())).toEqual([[[e.alice.id], e.general, 'fresh', 3]]);
    expect(await policyOf(e, e.alice, e.general, 'fresh')).toBe(3);
    // The mover, whose settings ask for the same, started nothing.
    expect(await policyOf(e, e.owner, e.general, 'fresh')).toBe(0);
  });

  it('reads only the "on initiation" value of the follow setting', async () => {
    for (const [follow, expected] of [[ON_PARTICIPATION, 0], [ON_SEND, 0], [ON_INITIATION, 3], [NEVER, 0]] as const) {
      const e = await editWorld();
      await automatic(e, e.alice, follow, NEVER);
      const id = await twoMessageTopic(e, e.alice);
      must(await move(e, e.owner, id, { topic: 'fresh', propagate_mode: 'change_one' }));
      expect([follow, await policyOf(e, e.alice, e.general, 'fresh')]).toEqual([follow, expected]);
      expect(userTopicEvents(e.drain())).toEqual(expected ? [[[e.alice.id], e.general, 'fresh', expected]] : []);
    }
  });

  it('unmutes in a muted channel when the unmute setting says "on initiation", and following wins over it', async () => {
    for (const [follow, unmute, muted, expected] of [
      [NEVER, ON_INITIATION, true, 2],
      [NEVER, ON_INITIATION, false, 0],
      [NEVER, ON_SEND, true, 0],
      [NEVER, ON_PARTICIPATION, true, 0],
      [ON_INITIATION, ON_INITIATION, true, 3],
      [ON_SEND, ON_INITIATION, true, 2],
    ] as const) {
      const e = await editWorld();
      await automatic(e, e.alice, follow, unmute);
      if (muted) await muteChannel(e, e.alice, e.general);
      const id = await twoMessageTopic(e, e.alice);
      must(await move(e, e.owner, id, { topic: 'fresh', propagate_mode: 'change_one' }));
      expect([follow, unmute, muted, await policyOf(e, e.alice, e.general, 'fresh')]).toEqual([follow, unmute, muted, expected]);
      expect(userTopicEvents(e.drain())).toEqual(expected ? [[[e.alice.id], e.general, 'fresh', expected]] : []);
    }
  });

  it('needs the target to be the first message of its new topic: earlier ones there prevent it, later ones do not', async () => {
    const e = await editWorld();
    const early = await twoMessageTopic(e, e.alice);
    await e.send(e.owner, 'general', 'existing');
    const late = await e.send(e.alice, 'general', 'lunch');
    e.drain();
    must(await move(e, e.owner, late, { topic: 'existing', propagate_mode: 'change_one' }));
    expect(userTopicEvents(e.drain())).toEqual([]);
    // Moved in before the existing message, the earlier message now starts that topic.
    must(await move(e, e.owner, early, { topic: 'existing', propagate_mode: 'change_one' }));
    expect(userTopicEvents(e.drain())).toEqual([[[e.alice.id], e.general, 'existing', 3]]);
  });

  it('considers only the target\'s sender, not the senders of the other messages moved with it', async () => {
    const e = await editWorld();
    const id = await twoMessageTopic(e, e.alice);
    await e.send(e.bob, 'general', 'lunch');
    e.drain();
    must(await move(e, e.owner, id, { topic: 'fresh', propagate_mode: 'change_later' }));
    expect(userTopicEvents(e.drain())).toEqual([[[e.alice.id], e.general, 'fresh', 3]]);
    expect(await policyOf(e, e.bob, e.general, 'fresh')).toBe(0);
  });

  it('does not override a followed topic with unmuted, but does override a muted one, as the reference does', async () => {
    const e = await editWorld();
    await automatic(e, e.alice, NEVER, ON_INITIATION);
    await muteChannel(e, e.alice, e.general);
    await setPolicy(e, e.alice, e.general, 'followed', 3);
    await setPolicy(e, e.alice, e.general, 'muted', 1);
    const a = await twoMessageTopic(e, e.alice);
    const b = await e.send(e.alice, 'general', 'lunch');
    e.drain();
    must(await move(e, e.owner, a, { topic: 'followed', propagate_mode: 'change_one' }));
    must(await move(e, e.owner, b, { topic: 'muted', propagate_mode: 'change_one' }));
    expect(userTopicEvents(e.drain())).toEqual([[[e.alice.id], e.general, 'muted', 2]]);
  });

  it('leaves whole-topic moves to the policies that move with the topic', async () => {
    const e = await editWorld();
    await automatic(e, e.alice, NEVER, NEVER);
    const id = await twoMessageTopic(e, e.alice);
    await automatic(e, e.alice, ON_INITIATION, NEVER);
    e.drain();
    must(await move(e, e.owner, id, { topic: 'fresh', propagate_mode: 'change_all' }));
    // The owner's followed "lunch" moves; Alice gets nothing.
    expect(userTopicEvents(e.drain())).toEqual([
      [[e.owner.id], e.general, 'lunch', 0],
      [[e.owner.id], e.general, 'fresh', 3],
    ]);
    // change_one of a topic's only message is a whole-topic move as well.
    const only = await e.send(e.alice, 'general', 'solo');
    await setPolicy(e, e.alice, e.general, 'solo', 0);
    e.drain();
    must(await move(e, e.owner, only, { topic: 'solo moved', propagate_mode: 'change_one' }));
    expect(await policyOf(e, e.alice, e.general, 'solo moved')).toBe(0);
  });
});

describe('resolving topics', () => {
  it('resolving part of a topic can start the resolved topic for the sender; resolving all of it cannot', async () => {
    const e = await editWorld();
    const id = await twoMessageTopic(e, e.alice);
    must(await move(e, e.owner, id, { topic: '✔ lunch', propagate_mode: 'change_one' }));
    expect(userTopicEvents(e.drain())).toEqual([[[e.alice.id], e.general, '✔ lunch', 3]]);

    await automatic(e, e.bob, ON_INITIATION, NEVER);
    const whole = await e.send(e.bob, 'general', 'tea');
    await setPolicy(e, e.bob, e.general, 'tea', 0);
    e.drain();
    must(await move(e, e.owner, whole, { topic: '✔ tea', propagate_mode: 'change_all' }));
    expect(userTopicEvents(e.drain())).toEqual([]);
  });
});

describe('channel moves', () => {
  it('follows the topic in the new channel for a sender who can read it', async () => {
    const e = await editWorld();
    const id = await twoMessageTopic(e, e.alice);
    must(await move(e, e.owner, id, { stream_id: String(e.other), propagate_mode: 'change_one' }));
    expect(userTopicEvents(e.drain())).toEqual([[[e.alice.id], e.other, 'lunch', 3]]);
  });

  it('gives no policy and sends no event to a sender who cannot read the new channel', async () => {
    const e = await editWorld();
    const id = await twoMessageTopic(e, e.alice);
    must(await move(e, e.owner, id, { stream_id: String(e.secret), topic: 'fresh', propagate_mode: 'change_one' }));
    // The guest is not subscribed to "other", a public channel guests cannot read.
    const guests = await twoMessageTopic(e, e.guest);
    must(await move(e, e.owner, guests, { stream_id: String(e.other), propagate_mode: 'change_one' }));
    expect(userTopicEvents(e.drain())).toEqual([]);
    expect(await policyOf(e, e.alice, e.secret, 'fresh')).toBe(0);
    expect(await policyOf(e, e.guest, e.other, 'lunch')).toBe(0);
  });

  it('judges "first" by what the sender can see where history is protected', async () => {
    const e = await editWorld();
    must(await doSubscribe(e.w.ctx, e.w.as(e.owner), { subscriptions: [{"name":"vault"}], invite_only: true, history_public_to_subscribers: false }));
    await e.send(e.owner, 'vault', 'plans');
    must(await doSubscribe(e.w.ctx, e.w.as(e.owner), { subscriptions: [{"name":"vault"}], principals: [e.alice.id] }));
    const vault = await e.w.ctx.storage.read(async (tx) => (await tx.streams.byName(e.w.realm.id, 'vault'))!.id);
    const id = await twoMessageTopic(e, e.alice);
    must(await move(e, e.owner, id, { stream_id: String(vault), topic: 'plans', propagate_mode: 'change_one' }));
    expect(userTopicEvents(e.drain())).toEqual([[[e.alice.id], vault, 'plans', 3]]);
  });
});

describe('nothing happens', () => {
  it('for bots and the Notification Bot', async () => {
    const e = await editWorld();
    const bot = await e.w.addUser({ email: 'bot@example.com', fullName: 'A Bot', bot: true, botOwnerId: e.alice.id });
    must(await doSubscribe(e.w.ctx, e.w.as(e.owner), { subscriptions: [{"name":"general"}], principals: [bot.id] }));
    const botMessage = await twoMessageTopic(e, bot);
    must(await move(e, e.owner, botMessage, { topic: 'bot fresh', propagate_mode: 'change_one' }));
    const notice = must(await sendNotificationBotMessageNow(e.w.ctx, e.w.realm, { to: { channelId: e.general, topic: 'lunch' }, content: 'hi' }));
    e.drain();
    must(await move(e, e.owner, notice.id, { topic: 'notice fresh', propagate_mode: 'change_one' }));
    expect(userTopicEvents(e.drain())).toEqual([]);
    expect(await e.w.ctx.storage.read((tx) => tx.userTopics.list(e.w.realm.id, bot.id))).toEqual([]);
  });

  it('for direct messages, which have no topics', async () => {
    const e = await editWorld();
    const dm = await e.dm(e.alice, [e.bob]);
    e.drain();
    expect((await move(e, e.alice, dm, { topic: 'fresh' })).isErr()).toBe(true);
    must(await move(e, e.alice, dm, { content: 'edited' }));
    expect(userTopicEvents(e.drain())).toEqual([]);
  });

  it('when the move fails', async () => {
    const e = await editWorld();
    const id = await twoMessageTopic(e, e.alice);
    // Past the realm's limit for members moving messages within a channel (a week).
    e.clock.advance(8 * 24 * 3600 * 1000);
    expect((await move(e, e.alice, id, { topic: 'fresh', propagate_mode: 'change_one' })).isErr()).toBe(true);
    // A guest may not move messages at all.
    expect((await move(e, e.guest, id, { topic: 'fresh', propagate_mode: 'change_one' })).isErr()).toBe(true);
    expect(userTopicEvents(e.drain())).toEqual([]);
    expect(await policyOf(e, e.alice, e.general, 'fresh')).toBe(0);
  });
});
