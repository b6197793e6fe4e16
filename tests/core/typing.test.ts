/** POST /typing (API.md 4.1, 3; FACTS.md 6.1; SHAPES.md 4.7). */
import { doRegister, doSendTyping, doUpdateSettings, getEvents } from '@teamchat/core';
import type { LoosePublishedEvent as PublishedEvent } from '../helpers/events.js';
import { describe, expect, it } from 'vitest';
import { makeWorld, must } from '../helpers/core.js';
import { channel, setStream, subscribe } from './channel-helpers.js';
import { expectBadRequest, expectError, reload, secondRealm, setUser } from './fixtures.js';

async function world() {
  const w = await makeWorld({ config: { timers: false } });
  const alice = await w.addUser({ email: 'alice@example.com', fullName: 'Alice' });
  const bob = await w.addUser({ email: 'bob@example.com', fullName: 'Bob' });
  const published: PublishedEvent[] = [];
  w.ctx.events.subscribe((event) => published.push(event));
  return { w, alice, bob, published };
}

const person = (user: { id: number; deliveryEmail: string }) => ({ user_id: user.id, email: user.deliveryEmail });

describe('POST /typing: direct messages', () => {
  it('sends the event to every recipient, the sender included, and answers with an empty body', async () => {
    const { w, alice, bob, published } = await world();
    expect(must(await doSendTyping(w.ctx, w.as(alice), { op: 'start', to: [bob.id] }))).toEqual({});
    expect(published).toEqual([
      {
        realmId: w.realm.id,
        userIds: [alice.id, bob.id],
        event: { type: 'typing', op: 'start', message_type: 'direct', sender: person(alice), recipients: [person(alice), person(bob)] },
      },
    ]);
    must(await doSendTyping(w.ctx, w.as(alice), { type: 'direct', op: 'stop', to: [bob.id, w.owner.id, bob.id] }));
    expect(published[1]!.event).toMatchObject({ op: 'stop', recipients: [person(w.owner), person(alice), person(bob)] });
    expect(published[1]!.userIds).toEqual([w.owner.id, alice.id, bob.id]);
  });

  it('reaches the recipients’ queues, and the server keeps no typing state', async () => {
    const { w, alice, bob } = await world();
    const queue = must(await doRegister(w.ctx, w.as(bob), { event_types: ["typing"] })) as { queue_id: string };
    must(await doSendTyping(w.ctx, w.as(alice), { op: 'start', to: [bob.id] }));
    must(await doSendTyping(w.ctx, w.as(alice), { op: 'start', to: [bob.id] }));
    const polled = must(await getEvents(w.ctx, w.as(bob), { queue_id: queue.queue_id, dont_block: true }));
    expect(polled.events.map((e) => [e.id, e.type, 'op' in e ? e.op : undefined])).toEqual([
      [0, 'typing', 'start'],
      [1, 'typing', 'start'],
    ]);
  });

  it('skips recipients who turned off receiving typing notifications, and deactivated ones', async () => {
    const { w, alice, bob, published } = await world();
    must(await doUpdateSettings(w.ctx, w.as(bob), { receives_typing_notifications: false }));
    await setUser(w.ctx, w.owner, { isActive: false });
    published.length = 0;
    must(await doSendTyping(w.ctx, w.as(alice), { op: 'start', to: [bob.id,w.owner.id] }));
    expect(published[0]!.userIds).toEqual([alice.id]);
  });

  it('refuses a sender who turned off sending typing notifications', async () => {
    const { w, alice, bob, published } = await world();
    must(await doUpdateSettings(w.ctx, w.as(alice), { send_private_typing_notifications: false }));
    published.length = 0;
    // A request authenticates afresh, so the caller carries the changed setting.
    const caller = w.as(await reload(w.ctx, alice));
    expectBadRequest(await doSendTyping(w.ctx, caller, { op: 'start', to: [bob.id] }), 'User has disabled typing notifications for direct messages');
    expect(published).toEqual([]);
  });

  it('validates op, type and to with the reference’s texts', async () => {
    const { w, alice, bob, published } = await world();
    const send = (input: Record<string, unknown>) => doSendTyping.fromTransport(w.ctx, w.as(alice), input);
    expectError(await send({ to: `[${bob.id}]` }), 'REQUEST_VARIABLE_MISSING', "Missing 'op' argument", 400, { var_name: 'op' });
    expectBadRequest(await send({ op: 'pause', to: `[${bob.id}]` }), 'Invalid op');
    expectBadRequest(await send({ type: 'private', op: 'start', to: `[${bob.id}]` }), 'Invalid type');
    expectBadRequest(await send({ op: 'start' }), "Missing 'to' argument");
    expectBadRequest(await send({ op: 'start', to: '[]' }), "Empty 'to' list");
    expectBadRequest(await send({ op: 'start', to: String(bob.id) }), 'to is not a list');
    expectBadRequest(await send({ op: 'start', to: '[1,' }), 'to is not valid JSON');
    expectBadRequest(await send({ op: 'start', to: '["bob"]' }), 'to[0] is not an integer');
    expectBadRequest(await send({ op: 'start', to: '[9999]' }), 'Invalid user ID 9999');
    expect(published).toEqual([]);
  });

  it('treats another realm’s users as unknown', async () => {
    const { w, alice } = await world();
    const other = await secondRealm(w.ctx);
    expectBadRequest(await doSendTyping(w.ctx, w.as(alice), { op: 'start', to: [other.owner.id] }), `Invalid user ID ${other.owner.id}`);
  });

  it('needs a logged-in user', async () => {
    const { w, bob } = await world();
    expectError(await doSendTyping(w.ctx, w.as(null), { op: 'start', to: [bob.id] }), 'UNAUTHORIZED', 'Not logged in: API authentication or user session required', 401);
  });
});

describe('POST /typing: channels', () => {
  it('needs stream_id ("Missing channel ID") and a topic, for both type names', async () => {
    const { w, alice } = await world();
    for (const type of ['stream', 'channel']) {
      expectBadRequest(await doSendTyping.fromTransport(w.ctx, w.as(alice), { type, op: 'start', topic: 'lunch' }), 'Missing channel ID');
      expectBadRequest(await doSendTyping.fromTransport(w.ctx, w.as(alice), { type, op: 'start', stream_id: '1' }), 'Missing topic');
      expectBadRequest(await doSendTyping.fromTransport(w.ctx, w.as(alice), { type, op: 'start', stream_id: 'x', topic: 'a' }), 'stream_id is not valid JSON');
    }
  });

  it('delivers to the channel’s subscribers who receive typing notifications, the sender included', async () => {
    const { w, alice, bob, published } = await world();
    const carol = await w.addUser({ email: 'carol@example.com', fullName: 'Carol' });
    const dave = await w.addUser({ email: 'dave@example.com', fullName: 'Dave' });
    await subscribe(w, alice, ['lunch'], { principals: [alice.id, bob.id, carol.id, dave.id] });
    must(await doUpdateSettings(w.ctx, w.as(carol), { receives_typing_notifications: false }));
    await setUser(w.ctx, dave, { isActive: false });
    const stream = await channel(w, 'lunch');
    published.length = 0;
    expect(must(await doSendTyping(w.ctx, w.as(alice), { type: 'channel', op: 'start', stream_id: stream.id, topic: 'soup' }))).toEqual({});
    expect(published).toEqual([
      {
        realmId: w.realm.id,
        userIds: [alice.id, bob.id],
        event: { type: 'typing', op: 'start', message_type: 'stream', sender: person(alice), stream_id: stream.id, topic: 'soup' },
      },
    ]);
    // A member who may read a public channel may type in it without being subscribed.
    must(await doSendTyping(w.ctx, w.as(w.owner), { type: 'stream', op: 'stop', stream_id: stream.id, topic: 'soup' }));
    expect(published[1]!.userIds).toEqual([alice.id, bob.id]);
    expect(published[1]!.event).toMatchObject({ op: 'stop', sender: person(w.owner) });
  });

  it('reads "(no topic)" and the empty topic’s display name as ""; clients without empty_topic_name see the display name', async () => {
    const { w, alice, bob, published } = await world();
    await subscribe(w, alice, ['lunch'], { principals: [alice.id, bob.id] });
    const stream = await channel(w, 'lunch');
    const modern = must(
      await doRegister(w.ctx, w.as(bob), { event_types: ["typing"], client_capabilities: {"stream_typing_notifications":true,"empty_topic_name":true} }),
    ) as { queue_id: string };
    const legacy = must(await doRegister(w.ctx, w.as(bob), { event_types: ["typing"], client_capabilities: {"stream_typing_notifications":true} })) as {
      queue_id: string;
    };
    published.length = 0;
    for (const topic of ['(no topic)', 'general chat', '']) {
      must(await doSendTyping(w.ctx, w.as(alice), { type: 'channel', op: 'start', stream_id: stream.id, topic }));
    }
    expect(published.map((p) => p.event.topic)).toEqual(['', '', '']);
    const topics = async (queueId: string) =>
      must(await getEvents(w.ctx, w.as(bob), { queue_id: queueId, dont_block: true })).events.map((e) => ('topic' in e ? e.topic : undefined));
    expect(await topics(modern.queue_id)).toEqual(['', '', '']);
    expect(await topics(legacy.queue_id)).toEqual(['general chat', 'general chat', 'general chat']);
  });

  it('answers "Invalid channel ID" for channels the sender cannot read, and refuses those they may not post to', async () => {
    const { w, alice, bob, published } = await world();
    const guest = await w.addUser({ email: 'guest@example.com', fullName: 'Guest', role: 600 });
    await subscribe(w, alice, ['secret'], { invite_only: true });
    await subscribe(w, alice, ['open', 'old', 'announcements']);
    const [secret, open, old, announcements] = [await channel(w, 'secret'), await channel(w, 'open'), await channel(w, 'old'), await channel(w, 'announcements')];
    await setStream(w, old, { isArchived: true });
    await setStream(w, announcements, { groupSettings: { ...announcements.groupSettings, can_send_message_group: 'role:administrators' } });
    const other = await secondRealm(w.ctx);
    published.length = 0;
    const send = (user: typeof alice, streamId: number) => doSendTyping(w.ctx, w.as(user), { type: 'channel', op: 'start', stream_id: streamId, topic: 't' });
    for (const [user, streamId] of [
      [bob, secret.id],
      [w.owner, secret.id],
      [guest, open.id],
      [alice, old.id],
      [alice, 424242],
    ] as const) {
      expectBadRequest(await send(user, streamId), 'Invalid channel ID');
    }
    expectBadRequest(
      await doSendTyping(w.ctx, { realm: other.realm, user: other.owner }, { type: 'channel', op: 'start', stream_id: open.id, topic: 't' }),
      'Invalid channel ID',
    );
    expectBadRequest(await send(alice, announcements.id), 'You do not have permission to post in this channel.');
    must(await send(w.owner, announcements.id));
    expect(published.map((p) => p.event.stream_id)).toEqual([announcements.id]);
  });

  it('sends nothing for channels with more than 100 subscribers', async () => {
    const { w, alice, published } = await world();
    const users = [];
    for (let i = 0; i < 100; i++) users.push(await w.addUser({ email: `u${i}@example.com`, fullName: `User ${i}` }));
    await subscribe(w, alice, ['big'], { principals: [alice.id, ...users.slice(0, 99).map((u) => u.id)] });
    const stream = await channel(w, 'big');
    published.length = 0;
    must(await doSendTyping(w.ctx, w.as(alice), { type: 'channel', op: 'start', stream_id: stream.id, topic: 't' }));
    expect(published[0]!.userIds).toHaveLength(100);
    await subscribe(w, alice, ['big'], { principals: [users[99]!.id] });
    published.length = 0;
    expect(must(await doSendTyping(w.ctx, w.as(alice), { type: 'channel', op: 'start', stream_id: stream.id, topic: 't' }))).toEqual({});
    expect(published).toEqual([]);
  });

  it('delivers channel typing events only to queues that declared stream_typing_notifications', async () => {
    const { w, bob } = await world();
    const plain = must(await doRegister(w.ctx, w.as(bob), { event_types: ["typing"] })) as { queue_id: string };
    const capable = must(
      await doRegister(w.ctx, w.as(bob), { event_types: ["typing"], client_capabilities: {"stream_typing_notifications":true} }),
    ) as { queue_id: string };
    const event = { type: 'typing', op: 'start', message_type: 'stream', sender: person(bob), stream_id: 1, topic: 'lunch' } as const;
    w.ctx.events.publish({ realmId: w.realm.id, userIds: [bob.id], event });
    const poll = async (queueId: string) => must(await getEvents(w.ctx, w.as(bob), { queue_id: queueId, dont_block: true })).events;
    expect(await poll(plain.queue_id)).toEqual([]);
    expect(await poll(capable.queue_id)).toEqual([{ ...event, id: 0 }]);
  });
});
