/**
 * Bounds of event queues (issue #10): a queue over its event count or byte budget is ended, not
 * trimmed, so its client gets BAD_EVENT_QUEUE_ID and re-registers instead of polling into
 * "already pruned" errors with a gap it cannot see; a user has at most maxQueuesPerUser queues,
 * and registering one more ends their least recently used queue. Fake clock, timers off.
 */
import { type Ctx, doDeleteQueue, doRegister, doUpdateUser, getEvents, type ServerConfig, type User } from '@teamchat/core';
import { type LooseQueuedEvent as QueuedEvent, type TestEvent, untypedEvent } from '../helpers/events.js';
import { describe, expect, it } from 'vitest';
import { makeWorld, must, queueIdOf, type World } from '../helpers/core.js';
import { expectError, fakeClock } from './fixtures.js';

type Config = Partial<ServerConfig>;
type Polled = { events: QueuedEvent[]; queue_id: string };

async function world(config: Config = {}) {
  const clock = fakeClock();
  const w = await makeWorld({ clock, config: { timers: false, heartbeatSeconds: 45, heartbeatJitterSeconds: 0, ...config } });
  const member = await w.addUser({ email: 'mel@example.com', fullName: 'Mel Member' });
  return { w, clock, member };
}

async function register(w: World, user: User, params: Record<string, unknown> = {}): Promise<string> {
  return queueIdOf(must(await doRegister(w.ctx, w.as(user), params)));
}

const poll = (w: World, user: User, params: Record<string, unknown>) => getEvents(w.ctx, w.as(user), params);

const publish = (ctx: Ctx, realmId: number, userIds: number[], event: TestEvent) => ctx.events.publish({ realmId, userIds, event: untypedEvent(event) });

/** The reference's answer for a queue that is gone: the client re-registers on it. */
const expectGone = (result: Parameters<typeof expectError>[0], queueId: string) =>
  expectError(result, 'BAD_EVENT_QUEUE_ID', `Bad event queue ID: ${queueId}`, 400, { queue_id: queueId });

/** A test event of about `size` bytes of JSON. */
const payload = (n: number, size: number) => ({ type: 'test', n, text: 'x'.repeat(size) });

/** Whether a promise has settled, after letting pending callbacks run. */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  void promise.then(() => (done = true));
  await new Promise((resolve) => setImmediate(resolve));
  return done;
}

describe('events per queue (maxQueueLength)', () => {
  it('a queue that would hold one event too many is ended; its next poll gets BAD_EVENT_QUEUE_ID', async () => {
    const { w, member } = await world({ maxQueueLength: 3 });
    const lagging = await register(w, member);
    const keeping = await register(w, member);
    let seen = -1;
    for (let n = 0; n < 4; n++) {
      publish(w.ctx, w.realm.id, [member.id], { type: 'test', n });
      // This client keeps up, so its queue never holds more than one event.
      seen = (must(await poll(w, member, { queue_id: keeping, last_event_id: seen, dont_block: true }))).events.at(-1)!.id;
      if (n < 3) expect((must(await poll(w, member, { queue_id: lagging, dont_block: true }))).events).toHaveLength(n + 1);
    }
    // Never "An event newer than -1 has already been pruned!": the queue is gone, not trimmed.
    expectGone(await poll(w, member, { queue_id: lagging, last_event_id: -1 }), lagging);
    expectGone(await poll(w, member, { queue_id: lagging, last_event_id: 2, dont_block: true }), lagging);
    expectGone(await doDeleteQueue(w.ctx, w.as(member), { queue_id: lagging }), lagging);
    expect(seen).toBe(3);
    expect(w.ctx.queues.userQueues(member.id).map((q) => q.id)).toEqual([keeping]);
  });

  it('acknowledged events make room again', async () => {
    const { w, member } = await world({ maxQueueLength: 3 });
    const queueId = await register(w, member);
    for (let n = 0; n < 3; n++) publish(w.ctx, w.realm.id, [member.id], { type: 'test', n });
    must(await poll(w, member, { queue_id: queueId, last_event_id: 1, dont_block: true }));
    for (let n = 3; n < 5; n++) publish(w.ctx, w.realm.id, [member.id], { type: 'test', n });
    const polled = must(await poll(w, member, { queue_id: queueId, last_event_id: 1, dont_block: true })) as Polled;
    expect(polled.events.map((e) => e.n)).toEqual([2, 3, 4]);
  });

  it('other users keep their queues when one user’s queue is ended', async () => {
    const { w, member } = await world({ maxQueueLength: 2 });
    const mine = await register(w, member);
    const theirs = await register(w, w.owner);
    for (let n = 0; n < 3; n++) publish(w.ctx, w.realm.id, [member.id], { type: 'test', n });
    publish(w.ctx, w.realm.id, [w.owner.id], { type: 'test', n: 9 });
    expectGone(await poll(w, member, { queue_id: mine, last_event_id: -1 }), mine);
    expect((must(await poll(w, w.owner, { queue_id: theirs, last_event_id: -1 }))).events).toEqual([{ type: 'test', n: 9, id: 0 }]);
  });

  it('a client that re-registers after the end gets a snapshot with everything it missed', async () => {
    const { w, member } = await world({ maxQueueLength: 2 });
    const queueId = await register(w, member, { event_types: '["realm_user"]' });
    for (const name of ['Mel One', 'Mel Two', 'Mel Three']) {
      must(await doUpdateUser(w.ctx, w.as(w.owner), { user_id: member.id, full_name: name }));
    }
    expectGone(await poll(w, member, { queue_id: queueId, last_event_id: -1 }), queueId);
    const state = must(await doRegister(w.ctx, w.as(member), { fetch_event_types: ["realm_user"] }));
    const me = (state.realm_users as Array<{ user_id: number; full_name: string }>).find((u) => u.user_id === member.id);
    expect(me?.full_name).toBe('Mel Three');
    must(await doUpdateUser(w.ctx, w.as(w.owner), { user_id: member.id, full_name: 'Mel Four' }));
    const polled = must(await poll(w, member, { queue_id: state.queue_id, last_event_id: -1, dont_block: true })) as Polled;
    expect(polled.events.map((e) => (e.person as { full_name: string }).full_name)).toEqual(['Mel Four']);
  });
});

describe('bytes per queue (maxQueueBytes)', () => {
  it('counts each event at about its JSON size, and ends the queue past the budget', async () => {
    const { w, member } = await world({ maxQueueBytes: 3000 });
    const queueId = await register(w, member);
    publish(w.ctx, w.realm.id, [member.id], payload(0, 1000));
    publish(w.ctx, w.realm.id, [member.id], payload(1, 1000));
    const [queue] = w.ctx.queues.userQueues(member.id);
    // JSON length (1000 + the keys) plus the fixed overhead per event.
    expect(queue!.bytes).toBeGreaterThan(2000);
    expect(queue!.bytes).toBeLessThanOrEqual(3000);
    expect(w.ctx.queues.stats()).toEqual({ queues: 1, events: 2, bytes: queue!.bytes });
    publish(w.ctx, w.realm.id, [member.id], payload(2, 1000));
    expectGone(await poll(w, member, { queue_id: queueId, last_event_id: -1 }), queueId);
    expect(w.ctx.queues.stats()).toEqual({ queues: 0, events: 0, bytes: 0 });
  });

  it('acknowledging frees the bytes', async () => {
    const { w, member } = await world({ maxQueueBytes: 3000 });
    const queueId = await register(w, member);
    for (let n = 0; n < 10; n++) {
      publish(w.ctx, w.realm.id, [member.id], payload(n, 1000));
      must(await poll(w, member, { queue_id: queueId, last_event_id: n, dont_block: true }));
    }
    expect(w.ctx.queues.stats()).toEqual({ queues: 1, events: 0, bytes: 0 });
  });

  it('a waiting poll on a queue that overflows is answered with BAD_EVENT_QUEUE_ID at once', async () => {
    const { w, member } = await world({ maxQueueBytes: 3000 });
    const queueId = await register(w, member);
    const waiting = poll(w, member, { queue_id: queueId, last_event_id: -1 });
    expect(await settled(waiting)).toBe(false);
    publish(w.ctx, w.realm.id, [member.id], payload(0, 5000));
    expect(await settled(waiting)).toBe(true);
    expectGone(await waiting, queueId);
  });
});

describe('queues per user (maxQueuesPerUser)', () => {
  it('registering past the cap ends the least recently polled queue, whose next poll gets BAD_EVENT_QUEUE_ID', async () => {
    const { w, clock, member } = await world({ maxQueuesPerUser: 3 });
    const [a, b, c] = [await register(w, member), await register(w, member), await register(w, member)];
    const others = await register(w, w.owner);
    clock.advance(1000);
    must(await poll(w, member, { queue_id: a, dont_block: true }));
    clock.advance(1000);
    must(await poll(w, member, { queue_id: c, dont_block: true }));
    const d = await register(w, member);
    expectGone(await poll(w, member, { queue_id: b, last_event_id: -1 }), b);
    expect(w.ctx.queues.userQueues(member.id).map((q) => q.id)).toEqual([a, c, d]);
    // The next one goes too: a was polled before c, and d was just registered.
    const e = await register(w, member);
    expect(w.ctx.queues.userQueues(member.id).map((q) => q.id)).toEqual([c, d, e]);
    expect(w.ctx.queues.userQueues(w.owner.id).map((q) => q.id)).toEqual([others]);
  });

  it('a queue held by a waiting poll goes last; when it goes, the poll is answered with BAD_EVENT_QUEUE_ID', async () => {
    const { w, clock, member } = await world({ maxQueuesPerUser: 2 });
    const held = await register(w, member);
    clock.advance(1000);
    const idle = await register(w, member);
    const waiting = poll(w, member, { queue_id: held, last_event_id: -1 });
    await register(w, member);
    expectGone(await poll(w, member, { queue_id: idle, last_event_id: -1 }), idle);
    expect(await settled(waiting)).toBe(false);
    // Now every queue of the user but the new one is held: the oldest connection goes.
    const newest = w.ctx.queues.userQueues(member.id)[1]!.id;
    clock.advance(1000);
    const waitingToo = poll(w, member, { queue_id: newest, last_event_id: -1 });
    await register(w, member);
    expectGone(await waiting, held);
    expect(await settled(waitingToo)).toBe(false);
    w.ctx.queues.shutdown();
    must(await waitingToo);
  });

  it('GET /events without queue_id counts against the cap too', async () => {
    const { w, member } = await world({ maxQueuesPerUser: 2 });
    for (let i = 0; i < 5; i++) must(await poll(w, member, { dont_block: true }));
    expect(w.ctx.queues.userQueues(member.id)).toHaveLength(2);
  });

  it('concurrent registrations past the cap answer a queue or BAD_EVENT_QUEUE_ID, never throw', async () => {
    const { w, member } = await world({ maxQueuesPerUser: 1 });
    const answers = await Promise.all(Array.from({ length: 5 }, () => poll(w, member, { dont_block: true })));
    for (const answer of answers) {
      if (answer.isErr()) expect(answer.error.code).toBe('BAD_EVENT_QUEUE_ID');
      else expect((answer.value).events).toEqual([]);
    }
    expect(answers.some((answer) => answer.isOk())).toBe(true);
    expect(w.ctx.queues.userQueues(member.id)).toHaveLength(1);
  });

  it('10,300 registrations of one user leave maxQueuesPerUser queues, and 1,000 events stay within their budgets', async () => {
    const { w, member } = await world();
    const { maxQueuesPerUser, maxQueueBytes, maxQueueLength } = w.ctx.config;
    for (let i = 0; i < 10_300; i++) must(await poll(w, member, { dont_block: true }));
    expect(w.ctx.queues.size).toBe(maxQueuesPerUser);
    for (let n = 0; n < 1000; n++) publish(w.ctx, w.realm.id, [member.id], payload(n, 2000));
    const stats = w.ctx.queues.stats();
    expect(stats.queues).toBeLessThanOrEqual(maxQueuesPerUser);
    expect(stats.events).toBeLessThanOrEqual(maxQueuesPerUser * maxQueueLength);
    expect(stats.bytes).toBeLessThanOrEqual(maxQueuesPerUser * maxQueueBytes);
    for (const queue of w.ctx.queues.userQueues(member.id)) expect(queue.bytes).toBeLessThanOrEqual(maxQueueBytes);
  });
});
