/** announce=true on POST /users/me/subscriptions: the Notification Bot announces new public channels. */
import { doArchiveStream, doSubscribe } from '@teamchat/core';
import { expect, it } from 'vitest';
import { makeWorld, must, type World } from '../helpers/core.js';
import { expectError } from './fixtures.js';
import { channelId, drain, history, messageQueue, setRealmSettings, storedBot } from './notification-bot-helpers.js';

/** A realm whose announcements go to #announcements (owner and Bob subscribed; Eve is not). */
async function announcingWorld() {
  const w = await makeWorld({ config: { timers: false } });
  const bob = await w.addUser({ email: 'bob@example.com', fullName: 'Bob' });
  const eve = await w.addUser({ email: 'eve@example.com', fullName: 'Eve' });
  must(await doSubscribe(w.ctx, w.as(w.owner), { subscriptions: [{"name":"announcements"}], principals: [w.owner.id,bob.id] }));
  await setRealmSettings(w, { new_stream_announcements_stream_id: await channelId(w, 'announcements') });
  return { w, bob, eve };
}

const subscribe = (w: World, subscriptions: string, extra: Record<string, string> = {}) =>
  doSubscribe.fromTransport(w.ctx, w.as(w.owner), { subscriptions, announce: 'true', ...extra });

it("announces one new channel in the topic 'new channels', read for its creator, to the channel's subscribers", async () => {
  const { w, bob, eve } = await announcingWorld();
  const [bobQueue, eveQueue, ownerQueue] = [await messageQueue(w, bob), await messageQueue(w, eve), await messageQueue(w, w.owner)];
  must(await subscribe(w, '[{"name":"design"}]'));
  const bot = (await storedBot(w))!;
  const content = `@_**Olivia Owner|${w.owner.id}** created a new channel #**design**.`;
  const [event] = await drain(w, bob, bobQueue);
  expect(event).toMatchObject({ type: 'message', flags: [], message: { sender_id: bot.id, stream_id: 1, subject: 'new channels', content } });
  expect((await drain(w, w.owner, ownerQueue)).map((e) => e.flags)).toEqual([['read']]);
  expect(await drain(w, eve, eveQueue)).toEqual([]);
  expect((await history(w, bob)).map((m) => [m.subject, m.content])).toEqual([['new channels', content]]);
});

it('names several new channels in one message, and leaves private ones out', async () => {
  const { w, bob } = await announcingWorld();
  must(await subscribe(w, '[{"name":"alpha"},{"name":"beta"},{"name":"announcements"}]'));
  must(await subscribe(w, '[{"name":"secret"}]', { invite_only: 'true' }));
  expect((await history(w, bob)).map((m) => m.content)).toEqual([`@_**Olivia Owner|${w.owner.id}** created the following channels: #**alpha**, #**beta**.`]);
});

it('says nothing without announce, without an announcements channel, or when it is archived', async () => {
  const { w, bob } = await announcingWorld();
  must(await doSubscribe(w.ctx, w.as(w.owner), { subscriptions: [{"name":"quiet"}] }));
  must(await subscribe(w, '[{"name":"quiet"}]'));
  must(await subscribe(w, '[{"name":"announced"}]', { principals: '[]' }));
  const before = await history(w, bob);
  expect(before.map((m) => m.content)).toEqual([`@_**Olivia Owner|${w.owner.id}** created a new channel #**announced**.`]);

  await setRealmSettings(w, { new_stream_announcements_stream_id: -1 });
  must(await subscribe(w, '[{"name":"unset"}]'));
  await setRealmSettings(w, { new_stream_announcements_stream_id: await channelId(w, 'announcements') });
  must(await doArchiveStream(w.ctx, w.as(w.owner), { stream_id: await channelId(w, 'announcements') }));
  must(await subscribe(w, '[{"name":"after-archive"}]'));
  expect(await history(w, bob)).toEqual(before);
});

it('a refused subscription request announces nothing and creates nothing', async () => {
  const { w, bob } = await announcingWorld();
  const queue = await messageQueue(w, bob);
  expectError(await subscribe(w, '[{"name":"doomed"}]', { principals: '[999]' }), 'BAD_REQUEST', 'No such user');
  expect(await drain(w, bob, queue)).toEqual([]);
  expect(await storedBot(w)).toBeUndefined();
  expect(await w.ctx.storage.read((tx) => tx.streams.byName(w.realm.id, 'doomed'))).toBeUndefined();
});
