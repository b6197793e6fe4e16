/**
 * Event queues (API.md 4.2, SHAPES.md 3, FACTS.md 5): long-polling, acknowledgement and
 * pruning, heartbeats, idle expiry and collection, shutdown and scale (bounds and fan-out are
 * in event-queue-bounds.test.ts and event-fanout.test.ts). Time-dependent behaviour runs on a
 * fake clock with the real timer off (`timers: false`): the test moves the clock and calls
 * `ctx.queues.sweep()` itself, so nothing sleeps for a heartbeat.
 */
import {
  type Ctx,
  doDeleteQueue,
  doRegister,
  doUpdateUser,
  getEvents,
  STATE_SECTIONS,
  type User,
} from '@teamchat/core/internal';
import { QUEUE_OPTIONS, type LooseQueuedEvent as QueuedEvent, type TestEvent, untypedEvent } from '../helpers/events.js';
import { describe, expect, it, vi } from 'vitest';
import { makeWorld, must, queueIdOf, type World } from '../helpers/core.js';
import { expectBadRequest, expectError, fakeClock } from './fixtures.js';

type Options = Parameters<typeof makeWorld>[0];
type Polled = { events: QueuedEvent[]; queue_id: string };

/** A world on a fake clock with the real timer off; heartbeats due after exactly 45 s. */
async function world(options: Options = {}) {
  const clock = fakeClock();
  const w = await makeWorld({
    clock,
    ...options,
    config: { timers: false, heartbeatSeconds: 45, heartbeatJitterSeconds: 0, ...options.config },
  });
  const member = await w.addUser({ email: 'mel@example.com', fullName: 'Mel Member' });
  return { w, clock, member };
}

async function register(w: World, user: User, params: Record<string, unknown> = {}): Promise<string> {
  return queueIdOf(must(await doRegister(w.ctx, w.as(user), params)));
}

const poll = (w: World, user: User, params: Record<string, unknown>) => getEvents(w.ctx, w.as(user), params);

/** Every queued event of the queue, without acknowledging anything. */
async function peek(w: World, user: User, queueId: string): Promise<QueuedEvent[]> {
  return (must(await poll(w, user, { queue_id: queueId, dont_block: true }))).events;
}

/** Publishes a test event to the given users, as an action's afterCommit does. */
function publish(ctx: Ctx, realmId: number, userIds: number[], event: TestEvent): void {
  ctx.events.publish({ realmId, userIds, event: untypedEvent(event) });
}


/** Whether a promise has settled, after letting pending callbacks run. */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  void promise.then(() => (done = true));
  await new Promise((resolve) => setImmediate(resolve));
  return done;
}

describe('long-polling', () => {
  it('returns within milliseconds of the event a committed action publishes', async () => {
    // Real clock and real timer: the heartbeat (45–55 s) is far away and plays no part.
    const w = await makeWorld();
    const member = await w.addUser({ email: 'mel@example.com', fullName: 'Mel Member' });
    const queueId = await register(w, member);
    const pending = poll(w, member, { queue_id: queueId, last_event_id: -1 });
    expect(await settled(pending)).toBe(false);
    const start = performance.now();
    must(await doUpdateUser(w.ctx, w.as(w.owner), { user_id: member.id, full_name: 'Melanie' }));
    const polled = must(await pending);
    const elapsed = performance.now() - start;
    expect(polled).toEqual({
      queue_id: queueId,
      events: [{ type: 'realm_user', op: 'update', person: { user_id: member.id, full_name: 'Melanie' }, id: 0 }],
    });
    expect(elapsed).toBeLessThan(100);
    w.ctx.queues.shutdown();
  });

  it('answers at once with queued events, without waiting', async () => {
    const { w, member } = await world();
    const queueId = await register(w, member);
    publish(w.ctx, w.realm.id, [member.id], { type: 'test', n: 1 });
    const polled = must(await poll(w, member, { queue_id: queueId, last_event_id: -1 }));
    expect(polled.events).toEqual([{ type: 'test', n: 1, id: 0 }]);
  });

  it('dont_block answers at once with no events, then with what is queued', async () => {
    const { w, member } = await world();
    const queueId = await register(w, member);
    expect(must(await poll(w, member, { queue_id: queueId, last_event_id: -1, dont_block: 'true' }))).toEqual({
      queue_id: queueId,
      events: [],
    });
    publish(w.ctx, w.realm.id, [member.id], { type: 'test', n: 1 });
    publish(w.ctx, w.realm.id, [member.id], { type: 'test', n: 2 });
    expect((must(await poll(w, member, { queue_id: queueId, last_event_id: -1, dont_block: true }))).events).toEqual([
      { type: 'test', n: 1, id: 0 },
      { type: 'test', n: 2, id: 1 },
    ]);
  });

  it('a newer poll of the same queue answers the older one, blocking or not', async () => {
    const { w, member } = await world();
    const queueId = await register(w, member);
    const first = poll(w, member, { queue_id: queueId, last_event_id: -1 });
    const second = poll(w, member, { queue_id: queueId, last_event_id: -1 });
    expect(must(await first)).toEqual({ queue_id: queueId, events: [] });
    expect(await settled(second)).toBe(false);
    // A dont_block poll finishes the waiting one too (the reference's finish_current_handler).
    expect(must(await poll(w, member, { queue_id: queueId, dont_block: true }))).toEqual({ queue_id: queueId, events: [] });
    expect(must(await second)).toEqual({ queue_id: queueId, events: [] });
  });

  it('an event for another user leaves the poll waiting', async () => {
    const { w, member } = await world();
    const queueId = await register(w, member);
    const pending = poll(w, member, { queue_id: queueId, last_event_id: -1 });
    publish(w.ctx, w.realm.id, [w.owner.id], { type: 'test' });
    expect(await settled(pending)).toBe(false);
    publish(w.ctx, w.realm.id, [member.id], { type: 'test' });
    expect((must(await pending)).events).toEqual([{ type: 'test', id: 0 }]);
  });

  it('gives every queue of the user its own copy with its own IDs', async () => {
    const { w, member } = await world();
    const a = await register(w, member);
    publish(w.ctx, w.realm.id, [member.id], { type: 'test', n: 1 });
    const b = await register(w, member);
    publish(w.ctx, w.realm.id, [member.id, member.id], { type: 'test', n: 2 });
    expect(await peek(w, member, a)).toEqual([
      { type: 'test', n: 1, id: 0 },
      { type: 'test', n: 2, id: 1 },
    ]);
    // A duplicated user ID does not deliver twice.
    expect(await peek(w, member, b)).toEqual([{ type: 'test', n: 2, id: 0 }]);
  });

  it('never delivers an event of another realm', async () => {
    const { w, member } = await world();
    const queueId = await register(w, member);
    publish(w.ctx, w.realm.id + 1, [member.id], { type: 'test' });
    expect(await peek(w, member, queueId)).toEqual([]);
  });
});

describe('acknowledgement and pruning', () => {
  it('IDs start at 0 and strictly increase; last_event_id drops what was acknowledged', async () => {
    const { w, member } = await world();
    const queueId = await register(w, member);
    for (let n = 0; n < 5; n++) publish(w.ctx, w.realm.id, [member.id], { type: 'test', n });
    const all = await peek(w, member, queueId);
    expect(all.map((e) => e.id)).toEqual([0, 1, 2, 3, 4]);

    const rest = must(await poll(w, member, { queue_id: queueId, last_event_id: 2 }));
    expect(rest.events.map((e) => e.id)).toEqual([3, 4]);
    // Acknowledged events never come back, whatever later polls ask.
    expect((await peek(w, member, queueId)).map((e) => e.id)).toEqual([3, 4]);
    expect((must(await poll(w, member, { queue_id: queueId, last_event_id: 2 }))).events.map((e) => e.id)).toEqual([3, 4]);

    publish(w.ctx, w.realm.id, [member.id], { type: 'test', n: 5 });
    const later = must(await poll(w, member, { queue_id: queueId, last_event_id: 4 }));
    expect(later.events).toEqual([{ type: 'test', n: 5, id: 5 }]);
  });

  it('refuses going back past pruned events', async () => {
    const { w, member } = await world();
    const queueId = await register(w, member);
    for (let n = 0; n < 3; n++) publish(w.ctx, w.realm.id, [member.id], { type: 'test', n });
    must(await poll(w, member, { queue_id: queueId, last_event_id: 1 }));
    expectBadRequest(await poll(w, member, { queue_id: queueId, last_event_id: 0 }), 'An event newer than 0 has already been pruned!');
    expectBadRequest(await poll(w, member, { queue_id: queueId, last_event_id: -1 }), 'An event newer than -1 has already been pruned!');
    // The queue is unharmed: the unacknowledged event is still there.
    expect((await peek(w, member, queueId)).map((e) => e.id)).toEqual([2]);
  });

  it('refuses an ID the queue never issued, even on a fresh queue', async () => {
    const { w, member } = await world();
    const queueId = await register(w, member);
    expectBadRequest(await poll(w, member, { queue_id: queueId, last_event_id: 5 }), 'Event 5 was not in this queue');
    expectBadRequest(await poll(w, member, { queue_id: queueId, last_event_id: -2 }), 'An event newer than -2 has already been pruned!');
    publish(w.ctx, w.realm.id, [member.id], { type: 'test' });
    publish(w.ctx, w.realm.id, [member.id], { type: 'test' });
    // Past the newest event: everything is dropped, and the client is told its ID was wrong.
    expectBadRequest(await poll(w, member, { queue_id: queueId, last_event_id: 7 }), 'Event 7 was not in this queue');
    expect(await peek(w, member, queueId)).toEqual([]);
    // -1 is what register returns and is always a valid starting point of a fresh queue.
    const other = await register(w, member);
    expect(must(await poll(w, member, { queue_id: other, last_event_id: -1, dont_block: true }))).toEqual({
      queue_id: other,
      events: [],
    });
  });

  it('accepts a poll without last_event_id (API.md: optional) and acknowledges nothing', async () => {
    const { w, member } = await world();
    const queueId = await register(w, member);
    publish(w.ctx, w.realm.id, [member.id], { type: 'test' });
    expect((must(await poll(w, member, { queue_id: queueId }))).events).toEqual([{ type: 'test', id: 0 }]);
    expect(await peek(w, member, queueId)).toEqual([{ type: 'test', id: 0 }]);
  });

  it('rejects a last_event_id that is not an integer', async () => {
    const { w, member } = await world();
    const queueId = await register(w, member);
    expectBadRequest(await poll(w, member, { queue_id: queueId, last_event_id: 'x' }), 'last_event_id is not valid JSON');
    expectBadRequest(await poll(w, member, { queue_id: queueId, last_event_id: '1.5' }), 'last_event_id is not an integer');
  });
  // Bounds (a queue over them is ended, not trimmed) are in event-queue-bounds.test.ts.
});

describe('bad queue IDs', () => {
  const bad = (result: Parameters<typeof expectError>[0], queueId: string) =>
    expectError(result, 'BAD_EVENT_QUEUE_ID', `Bad event queue ID: ${queueId}`, 400, { queue_id: queueId });

  it('an unknown queue', async () => {
    const { w, member } = await world();
    bad(await poll(w, member, { queue_id: 'no-such-queue', last_event_id: -1 }), 'no-such-queue');
    bad(await poll(w, member, { queue_id: '', last_event_id: -1, dont_block: true }), '');
    bad(await doDeleteQueue(w.ctx, w.as(member), { queue_id: 'no-such-queue' }), 'no-such-queue');
  });

  it("another user's queue looks unknown, and is left alone", async () => {
    const { w, member } = await world();
    const queueId = await register(w, w.owner);
    publish(w.ctx, w.realm.id, [w.owner.id], { type: 'test' });
    bad(await poll(w, member, { queue_id: queueId, last_event_id: 0 }), queueId);
    bad(await doDeleteQueue(w.ctx, w.as(member), { queue_id: queueId }), queueId);
    expect(await peek(w, w.owner, queueId)).toEqual([{ type: 'test', id: 0 }]);
  });

  it('a deleted queue', async () => {
    const { w, member } = await world();
    const queueId = await register(w, member);
    expect(must(await doDeleteQueue(w.ctx, w.as(member), { queue_id: queueId }))).toEqual({});
    bad(await poll(w, member, { queue_id: queueId, last_event_id: -1 }), queueId);
    bad(await doDeleteQueue(w.ctx, w.as(member), { queue_id: queueId }), queueId);
  });

  it('an expired queue', async () => {
    const { w, clock, member } = await world();
    const queueId = await register(w, member);
    clock.advance(600_000);
    w.ctx.queues.sweep();
    bad(await poll(w, member, { queue_id: queueId, last_event_id: -1 }), queueId);
  });

  it('DELETE /events needs queue_id', async () => {
    const { w, member } = await world();
    expectError(await doDeleteQueue.fromTransport(w.ctx, w.as(member), {}), 'REQUEST_VARIABLE_MISSING', "Missing 'queue_id' argument", 400, {
      var_name: 'queue_id',
    });
  });
});

describe('DELETE /events', () => {
  it('discards the queue: no more events are queued for it', async () => {
    const { w, member } = await world();
    const kept = await register(w, member);
    const dropped = await register(w, member);
    must(await doDeleteQueue(w.ctx, w.as(member), { queue_id: dropped }));
    publish(w.ctx, w.realm.id, [member.id], { type: 'test' });
    expect(await peek(w, member, kept)).toEqual([{ type: 'test', id: 0 }]);
    expect(w.ctx.queues.size).toBe(1);
  });

  it('answers the poll waiting on the queue', async () => {
    const { w, member } = await world();
    const queueId = await register(w, member);
    const pending = poll(w, member, { queue_id: queueId, last_event_id: -1 });
    must(await doDeleteQueue(w.ctx, w.as(member), { queue_id: queueId }));
    expect(must(await pending)).toEqual({ queue_id: queueId, events: [] });
  });
});

describe('heartbeats', () => {
  it('answers a blocked poll with {type: heartbeat, id} after the heartbeat delay', async () => {
    const { w, clock, member } = await world();
    const queueId = await register(w, member);
    publish(w.ctx, w.realm.id, [member.id], { type: 'test' });
    must(await poll(w, member, { queue_id: queueId, last_event_id: -1 }));
    const pending = poll(w, member, { queue_id: queueId, last_event_id: 0 });
    clock.advance(44_999);
    w.ctx.queues.sweep();
    expect(await settled(pending)).toBe(false);
    clock.advance(1);
    w.ctx.queues.sweep();
    expect(must(await pending)).toEqual({ queue_id: queueId, events: [{ type: 'heartbeat', id: 1 }] });
    // The heartbeat is a real event: it stays until acknowledged.
    expect(await peek(w, member, queueId)).toEqual([{ type: 'heartbeat', id: 1 }]);
    expect(must(await poll(w, member, { queue_id: queueId, last_event_id: 1, dont_block: true }))).toEqual({
      queue_id: queueId,
      events: [],
    });
  });

  it('waits between heartbeatSeconds and heartbeatSeconds + jitter', async () => {
    const { w, clock, member } = await world({ config: { heartbeatSeconds: 45, heartbeatJitterSeconds: 10 } });
    const queueId = await register(w, member);
    const pending = poll(w, member, { queue_id: queueId, last_event_id: -1 });
    clock.advance(44_999);
    w.ctx.queues.sweep();
    expect(await settled(pending)).toBe(false);
    clock.advance(10_001);
    w.ctx.queues.sweep();
    expect((must(await pending)).events).toEqual([{ type: 'heartbeat', id: 0 }]);
  });

  it('is not sent to a queue without a waiting poll, nor for an answered one', async () => {
    const { w, clock, member } = await world();
    const idle = await register(w, member);
    const answered = await register(w, member);
    const pending = poll(w, member, { queue_id: answered, last_event_id: -1 });
    publish(w.ctx, w.realm.id, [member.id], { type: 'test' });
    must(await pending);
    clock.advance(60_000);
    w.ctx.queues.sweep();
    expect(await peek(w, member, idle)).toEqual([{ type: 'test', id: 0 }]);
    expect(await peek(w, member, answered)).toEqual([{ type: 'test', id: 0 }]);
  });

  it('the deadline is the current poll’s: a newer poll restarts it', async () => {
    const { w, clock, member } = await world();
    const queueId = await register(w, member);
    const first = poll(w, member, { queue_id: queueId, last_event_id: -1 });
    clock.advance(30_000);
    const second = poll(w, member, { queue_id: queueId, last_event_id: -1 });
    expect(must(await first)).toEqual({ queue_id: queueId, events: [] });
    clock.advance(20_000);
    w.ctx.queues.sweep();
    expect(await settled(second)).toBe(false);
    clock.advance(25_000);
    w.ctx.queues.sweep();
    expect((must(await second)).events).toEqual([{ type: 'heartbeat', id: 0 }]);
  });

  it('the real timer sends heartbeats when timers are on', async () => {
    const w = await makeWorld({ config: { heartbeatSeconds: 0.02, heartbeatJitterSeconds: 0 } });
    const queueId = await register(w, w.owner);
    const start = performance.now();
    const polled = must(await poll(w, w.owner, { queue_id: queueId, last_event_id: -1 }));
    expect(polled.events).toEqual([{ type: 'heartbeat', id: 0 }]);
    expect(performance.now() - start).toBeGreaterThanOrEqual(15);
    w.ctx.queues.shutdown();
  });
});

describe('idle expiry and collection', () => {
  it('collects a queue idle for its timeout at the next collection', async () => {
    const { w, clock, member } = await world();
    const queueId = await register(w, member);
    clock.advance(599_000);
    w.ctx.queues.sweep();
    expect(w.ctx.queues.size).toBe(1);
    // Expired now, but collection runs once a minute (the last one ran at 599 s).
    clock.advance(1_000);
    w.ctx.queues.sweep();
    expect(w.ctx.queues.size).toBe(1);
    clock.advance(59_000);
    w.ctx.queues.sweep();
    expect(w.ctx.queues.size).toBe(0);
    expect(w.ctx.queues.get(queueId, member.id).isErr()).toBe(true);
  });

  it('collects only every queueGcIntervalSeconds', async () => {
    const { w, clock, member } = await world({ config: { queueGcIntervalSeconds: 60 } });
    await register(w, member, { idle_queue_timeout: 10 });
    clock.advance(30_000);
    w.ctx.queues.sweep();
    expect(w.ctx.queues.size).toBe(1);
    clock.advance(30_000);
    w.ctx.queues.sweep();
    expect(w.ctx.queues.size).toBe(0);
  });

  it('receiving events does not keep a queue alive', async () => {
    const { w, clock, member } = await world();
    await register(w, member);
    for (let minute = 1; minute <= 10; minute++) {
      clock.advance(60_000);
      publish(w.ctx, w.realm.id, [member.id], { type: 'test' });
      w.ctx.queues.sweep();
    }
    expect(w.ctx.queues.size).toBe(0);
  });

  it('a client that keeps polling keeps its queue', async () => {
    const { w, clock, member } = await world();
    const queueId = await register(w, member);
    let last = -1;
    for (let round = 0; round < 6; round++) {
      clock.advance(500_000);
      w.ctx.queues.sweep();
      publish(w.ctx, w.realm.id, [member.id], { type: 'test', round });
      const polled = must(await poll(w, member, { queue_id: queueId, last_event_id: last, dont_block: true })) as Polled;
      expect(polled.events.map((e) => e.round)).toEqual([round]);
      last = polled.events.at(-1)!.id;
    }
    expect(w.ctx.queues.size).toBe(1);
  });

  it('never collects a queue whose poll is connected, and restarts its idle clock when answered', async () => {
    const { w, clock, member } = await world({ config: { heartbeatSeconds: 3600 } });
    const queueId = await register(w, member, { idle_queue_timeout: 60 });
    const pending = poll(w, member, { queue_id: queueId, last_event_id: -1 });
    clock.advance(600_000);
    w.ctx.queues.sweep();
    expect(w.ctx.queues.size).toBe(1);
    expect(await settled(pending)).toBe(false);
    clock.advance(3_000_000);
    // This sweep answers the poll with its heartbeat and collects in the same pass: the
    // queue was connected until now, so it is not idle.
    w.ctx.queues.sweep();
    expect((must(await pending)).events).toEqual([{ type: 'heartbeat', id: 0 }]);
    expect(w.ctx.queues.size).toBe(1);
    clock.advance(60_000);
    w.ctx.queues.sweep();
    expect(w.ctx.queues.size).toBe(0);
  });

  it('a long idle_queue_timeout keeps the queue past the default', async () => {
    const { w, clock, member } = await world();
    await register(w, member, { idle_queue_timeout: 'mobile' });
    clock.advance(43_199_000);
    w.ctx.queues.sweep();
    expect(w.ctx.queues.size).toBe(1);
    clock.advance(60_000);
    w.ctx.queues.sweep();
    expect(w.ctx.queues.size).toBe(0);
  });
});

describe('shutdown', () => {
  it('answers every waiting poll, and later polls at once', async () => {
    const { w, member } = await world();
    const queues = [await register(w, member), await register(w, member), await register(w, w.owner)];
    const pending = queues.map((queueId, i) => poll(w, i < 2 ? member : w.owner, { queue_id: queueId, last_event_id: -1 }));
    w.ctx.queues.shutdown();
    expect(await Promise.all(pending.map(async (p) => must(await p)))).toEqual(queues.map((queue_id) => ({ queue_id, events: [] })));
    expect(must(await poll(w, member, { queue_id: queues[0], last_event_id: -1 }))).toEqual({ queue_id: queues[0], events: [] });
  });
});

describe('scale', () => {
  it('holds 5000 waiting polls and answers each with its own event', async () => {
    const { w } = await world();
    const count = 5000;
    const queues = Array.from({ length: count }, (_, i) => w.ctx.queues.create(w.realm.id, 100_000 + i, QUEUE_OPTIONS));
    const pending = queues.map((queue) => w.ctx.queues.poll(queue, -1, false));
    expect(await settled(pending[0]!)).toBe(false);
    expect(await settled(pending[count - 1]!)).toBe(false);
    const start = performance.now();
    for (const queue of queues) publish(w.ctx, w.realm.id, [queue.userId], { type: 'test', user: queue.userId });
    const answers = await Promise.all(pending);
    expect(performance.now() - start).toBeLessThan(2000);
    for (const [i, answer] of answers.entries()) expect(answer._unsafeUnwrap()).toEqual([{ type: 'test', user: 100_000 + i, id: 0 }]);
  });

  it('arms one timer for all of them, not one per poll', async () => {
    const w = await makeWorld();
    const setTimer = vi.spyOn(globalThis, 'setTimeout');
    try {
      const queues = Array.from({ length: 5000 }, (_, i) => w.ctx.queues.create(w.realm.id, 100_000 + i, QUEUE_OPTIONS));
      const pending = queues.map((queue) => w.ctx.queues.poll(queue, -1, false));
      // Re-armed only when a poll's heartbeat (random jitter) is due before every earlier one.
      expect(setTimer.mock.calls.length).toBeLessThan(100);
      w.ctx.queues.shutdown();
      expect((await Promise.all(pending)).every((answer) => answer._unsafeUnwrap().length === 0)).toBe(true);
    } finally {
      setTimer.mockRestore();
    }
  });
});

describe('event_types', () => {
  it('queues only the listed types; heartbeats always', async () => {
    const { w, clock, member } = await world();
    const queueId = await register(w, member, { event_types: '["realm_bot"]' });
    publish(w.ctx, w.realm.id, [member.id], { type: 'realm_user', op: 'update' });
    publish(w.ctx, w.realm.id, [member.id], { type: 'realm_bot', op: 'add' });
    expect(await peek(w, member, queueId)).toEqual([{ type: 'realm_bot', op: 'add', id: 0 }]);
    const pending = poll(w, member, { queue_id: queueId, last_event_id: 0 });
    clock.advance(45_000);
    w.ctx.queues.sweep();
    expect((must(await pending)).events).toEqual([{ type: 'heartbeat', id: 1 }]);
  });

  it('an empty list accepts nothing but heartbeats; null or absent accepts everything', async () => {
    const { w, member } = await world();
    const none = await register(w, member, { event_types: '[]' });
    const all = await register(w, member, { event_types: 'null' });
    const absent = await register(w, member);
    publish(w.ctx, w.realm.id, [member.id], { type: 'realm_user' });
    publish(w.ctx, w.realm.id, [member.id], { type: 'something_new' });
    expect(await peek(w, member, none)).toEqual([]);
    expect((await peek(w, member, all)).map((e) => e.type)).toEqual(['realm_user', 'something_new']);
    expect((await peek(w, member, absent)).map((e) => e.type)).toEqual(['realm_user', 'something_new']);
  });

  it('ignores unknown types in the list', async () => {
    const { w, member } = await world();
    const queueId = await register(w, member, { event_types: '["no_such_type", "realm_user"]' });
    publish(w.ctx, w.realm.id, [member.id], { type: 'realm_user' });
    expect((await peek(w, member, queueId)).map((e) => e.type)).toEqual(['realm_user']);
  });
});

describe('GET /events without queue_id', () => {
  it('registers a queue from the register parameters and returns it with its (no) events', async () => {
    const { w, member } = await world();
    const polled = must(await poll(w, member, { dont_block: true, event_types: '["realm_user"]' }));
    expect(Object.keys(polled).sort()).toEqual(['events', 'queue_id']);
    expect(polled.events).toEqual([]);
    expect(polled.queue_id).toMatch(/^[0-9a-f-]{36}$/);
    publish(w.ctx, w.realm.id, [member.id], { type: 'realm_bot' });
    publish(w.ctx, w.realm.id, [member.id], { type: 'realm_user' });
    expect(await peek(w, member, polled.queue_id)).toEqual([{ type: 'realm_user', id: 0 }]);
  });

  it('fetches no snapshot section: only the queue is answered', async () => {
    const { w, member } = await world();
    // Every section of the table is spied on: polling fetches none, registering all of them.
    const fetches = STATE_SECTIONS.map((section) => vi.spyOn(section, 'fetch'));
    try {
      must(await poll(w, member, { dont_block: true }));
      expect(fetches.every((fetch) => fetch.mock.calls.length === 0)).toBe(true);
      must(await doRegister(w.ctx, w.as(member), {}));
      expect(fetches.every((fetch) => fetch.mock.calls.length === 1)).toBe(true);
    } finally {
      for (const fetch of fetches) fetch.mockRestore();
    }
  });

  it('registers also without dont_block (API.md 4.2; the reference requires dont_block) and answers at once', async () => {
    const { w, member } = await world();
    const polled = must(await poll(w, member, {}));
    expect(polled.events).toEqual([]);
    expect(w.ctx.queues.get(polled.queue_id, member.id).isOk()).toBe(true);
  });

  it('validates the register parameters', async () => {
    const { w, member } = await world();
    expectBadRequest(await poll(w, member, { dont_block: true, event_types: '[' }), 'event_types is not valid JSON');
    expect(w.ctx.queues.size).toBe(0);
  });

  it('needs a logged-in user', async () => {
    const { w } = await world();
    const spectator = await getEvents(w.ctx, w.as(null), { dont_block: true });
    expectError(spectator, 'UNAUTHORIZED', 'Not logged in: API authentication or user session required', 401);
    expect(w.ctx.queues.size).toBe(0);
  });
});
