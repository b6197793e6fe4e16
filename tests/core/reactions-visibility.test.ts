/** Who learns of a reaction: exactly the users who can see the message, never anyone else. */
import { doAddReaction, doRemoveReaction } from '@teamchat/core';
import { beforeEach, expect, it } from 'vitest';
import { must } from '../helpers/core.js';
import { type ChannelWorld, channel, channelWorld, ids, queued, recipientsOf, register, subscribe } from './channel-helpers.js';
import { send } from './reaction-helpers.js';

let c: ChannelWorld;
beforeEach(async () => {
  c = await channelWorld();
});

const react = async (user: ChannelWorld['member'], messageId: number) => {
  must(await doAddReaction(c.w.ctx, c.w.as(user), { message_id: messageId, emoji_name: 'tada' }));
  must(await doRemoveReaction(c.w.ctx, c.w.as(user), { message_id: messageId, emoji_name: 'tada' }));
};

it('a private channel: its subscribers, including one who joined after the message (shared history); no outsider', async () => {
  await subscribe(c.w, c.w.owner, ['secret'], { invite_only: true, history_public_to_subscribers: true, principals: [c.w.owner.id, c.member.id] });
  const message = await send(c.w, c.w.owner, 'secret');
  await subscribe(c.w, c.w.owner, ['secret'], { principals: [c.moderator.id] });
  const outsider = await register(c.w, c.admin, {});
  c.drain();
  await react(c.member, message);
  const audience = ids(c.w.owner, c.member, c.moderator);
  expect(recipientsOf(c.drain(), 'reaction')).toEqual([audience, audience]);
  expect(await queued(c.w, c.admin, outsider.queue_id)).toEqual([]);
});

it('a private channel without shared history: only users with a copy, not a later subscriber', async () => {
  // Private channels keep their history from later subscribers by default.
  await subscribe(c.w, c.w.owner, ['vault'], { invite_only: true, principals: [c.w.owner.id, c.member.id] });
  expect((await channel(c.w, 'vault')).historyPublicToSubscribers).toBe(false);
  const message = await send(c.w, c.w.owner, 'vault');
  await subscribe(c.w, c.w.owner, ['vault'], { principals: [c.moderator.id] });
  c.drain();
  await react(c.member, message);
  expect(recipientsOf(c.drain(), 'reaction')).toEqual([ids(c.w.owner, c.member), ids(c.w.owner, c.member)]);
});

it('a direct message: its participants only', async () => {
  const message = await send(c.w, c.member, [c.other]);
  c.drain();
  await react(c.other, message);
  expect(recipientsOf(c.drain(), 'reaction')).toEqual([ids(c.member, c.other), ids(c.member, c.other)]);
});

it('a public channel: subscribers and earlier reactors (their copies), not other members or guests', async () => {
  await subscribe(c.w, c.w.owner, ['general'], { principals: [c.w.owner.id, c.guest.id] });
  const message = await send(c.w, c.w.owner, 'general');
  c.drain();
  await react(c.member, message);
  // The member got a historical copy by reacting, so both events reach them.
  expect(recipientsOf(c.drain(), 'reaction')).toEqual([ids(c.w.owner, c.guest, c.member), ids(c.w.owner, c.guest, c.member)]);
});
