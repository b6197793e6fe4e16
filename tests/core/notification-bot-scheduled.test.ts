/** A scheduled message that cannot be delivered: failed: true, and a Notification Bot DM telling its sender why. */
import { deliverDueScheduledMessages, doArchiveStream, doCreateScheduledMessage, doDeactivateUser, doSubscribe } from '@teamchat/core/internal';
import { expect, it } from 'vitest';
import { makeWorld, must } from '../helpers/core.js';
import { fakeClock, T0 } from './fixtures.js';
import { channelId, drain, history, messageQueue, storedBot } from './notification-bot-helpers.js';

it("DMs the sender the reference's failure notice, with the error and the delivery time", async () => {
  const clock = fakeClock();
  const w = await makeWorld({ clock, config: { timers: false } });
  const bob = await w.addUser({ email: 'bob@example.com', fullName: 'Bob' });
  must(await doSubscribe(w.ctx, w.as(w.owner), { subscriptions: [{"name":"doomed"}], principals: [w.owner.id,bob.id] }));
  const when = Math.floor(T0 / 1000) + 60;
  must(await doCreateScheduledMessage(w.ctx, w.as(bob), { type: 'stream', to: await channelId(w, 'doomed'), topic: 't', content: 'later', scheduled_delivery_timestamp: when }));
  must(await doArchiveStream(w.ctx, w.as(w.owner), { stream_id: await channelId(w, 'doomed') }));
  const [bobQueue, ownerQueue] = [await messageQueue(w, bob, ['message', 'scheduled_messages']), await messageQueue(w, w.owner)];
  clock.advance(120_000);
  expect((await deliverDueScheduledMessages(w.ctx)).failed).toHaveLength(1);

  const bot = (await storedBot(w))!;
  const content = "The message you scheduled for <time:2024-01-02T03:05:05+00:00> was not sent because of the following error:\n\n> Not authorized to send to channel 'doomed'\n\n[View scheduled messages](#scheduled)";
  const events = await drain(w, bob, bobQueue);
  expect(events.map((e) => e.type)).toEqual(['scheduled_messages', 'message']);
  expect(events[0]).toMatchObject({ op: 'update', scheduled_message: { failed: true } });
  expect(events[1]).toMatchObject({ flags: [], message: { type: 'private', sender_id: bot.id, content } });
  expect(await drain(w, w.owner, ownerQueue)).toEqual([]);
  expect((await history(w, bob)).map((m) => m.content)).toEqual([content]);
});

it('sends no notice when the sender has been deactivated', async () => {
  const clock = fakeClock();
  const w = await makeWorld({ clock, config: { timers: false } });
  const bob = await w.addUser({ email: 'bob@example.com', fullName: 'Bob' });
  must(await doCreateScheduledMessage(w.ctx, w.as(bob), { type: 'private', to: [w.owner.id], content: 'later', scheduled_delivery_timestamp: Math.floor(T0 / 1000) + 60 }));
  must(await doDeactivateUser(w.ctx, w.as(w.owner), { user_id: bob.id }));
  clock.advance(120_000);
  expect((await deliverDueScheduledMessages(w.ctx)).failed).toHaveLength(1);
  expect(await storedBot(w)).toBeUndefined();
});
