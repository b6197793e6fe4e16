/** In-process subscriptions (openEventStream): the same queues and filtering as HTTP, no transport. */
import { doUpdateUser, openEventStream, type QueuedEvent } from '@teamchat/core';
import { describe, expect, it } from 'vitest';
import { makeWorld, must } from '../helpers/core.js';

async function take(iterator: AsyncIterator<QueuedEvent>, count: number): Promise<QueuedEvent[]> {
  const events: QueuedEvent[] = [];
  while (events.length < count) {
    const next = await iterator.next();
    if (next.done) break;
    events.push(next.value);
  }
  return events;
}

describe('openEventStream', () => {
  it('starts from the register snapshot and yields the events that follow', async () => {
    const w = await makeWorld({ config: { timers: false } });
    const member = await w.addUser({ email: 'mel@example.com', fullName: 'Mel Member' });
    const stream = must(await openEventStream(w.ctx, w.as(member), { fetch_event_types: ['realm_user'] }));
    expect(stream.state).toMatchObject({ queue_id: stream.queueId, last_event_id: -1 });
    expect((stream.state.realm_users as unknown[]).length).toBe(2);

    const iterator = stream[Symbol.asyncIterator]();
    const pending = take(iterator, 2);
    must(await doUpdateUser(w.ctx, w.as(w.owner), { user_id: member.id, full_name: 'Melanie' }));
    must(await doUpdateUser(w.ctx, w.as(w.owner), { user_id: member.id, role: 300 }));
    expect(await pending).toEqual([
      { type: 'realm_user', op: 'update', person: { user_id: member.id, full_name: 'Melanie' }, id: 0 },
      { type: 'realm_user', op: 'update', person: { user_id: member.id, role: 300 }, id: 1 },
    ]);
    stream.close();
    expect(await iterator.next()).toEqual({ done: true, value: undefined });
  });

  it('yields the events committed between opening it and starting to iterate', async () => {
    const w = await makeWorld({ config: { timers: false } });
    const member = await w.addUser({ email: 'mel@example.com', fullName: 'Mel Member' });
    const stream = must(await openEventStream(w.ctx, w.as(member), { event_types: ['realm_user'] }));
    must(await doUpdateUser(w.ctx, w.as(w.owner), { user_id: member.id, full_name: 'Melanie' }));
    const received: QueuedEvent[] = [];
    for await (const event of stream) {
      received.push(event);
      break;
    }
    expect(received).toEqual([{ type: 'realm_user', op: 'update', person: { user_id: member.id, full_name: 'Melanie' }, id: 0 }]);
    stream.close();
  });

  it('filters by event_types like a registered HTTP queue and skips heartbeats', async () => {
    const w = await makeWorld({ config: { timers: false, heartbeatSeconds: 1, heartbeatJitterSeconds: 0 } });
    const stream = must(await openEventStream(w.ctx, w.as(w.owner), { event_types: ['realm_bot'] }));
    const iterator = stream[Symbol.asyncIterator]();
    const first = iterator.next();
    await new Promise((resolve) => setTimeout(resolve, 5));
    w.ctx.queues.sweep(Date.now() + 2000);
    must(await doUpdateUser(w.ctx, w.as(w.owner), { user_id: w.owner.id, full_name: 'Not delivered' }));
    await w.addUser({ email: 'bot@example.com', fullName: 'Botty', bot: true, botOwnerId: w.owner.id });
    expect((await first).value).toMatchObject({ type: 'realm_bot', op: 'add', bot: { user_id: 2 } });
    stream.close();
  });

  it('ends when the server shuts down', async () => {
    const w = await makeWorld({ config: { timers: false } });
    const stream = must(await openEventStream(w.ctx, w.as(w.owner)));
    const iterator = stream[Symbol.asyncIterator]();
    const next = iterator.next();
    w.ctx.queues.shutdown();
    expect(await next).toEqual({ done: true, value: undefined });
  });

  it('refuses spectators, who have no queue', async () => {
    const w = await makeWorld();
    const result = await openEventStream(w.ctx, { realm: { ...w.realm, webPublicAccessEnabled: true }, user: null });
    expect(result._unsafeUnwrapErr()).toMatchObject({ code: 'BAD_REQUEST' });
  });
});

describe('deactivation', () => {
  it('drops the deactivated user’s queues and answers their waiting polls', async () => {
    const { doDeactivateUser, getEvents, doRegister } = await import('@teamchat/core');
    const w = await makeWorld({ config: { timers: false } });
    const member = await w.addUser({ email: 'mel@example.com', fullName: 'Mel Member' });
    const queue = must(await doRegister(w.ctx, w.as(member), {})) as { queue_id: string };
    const waiting = getEvents(w.ctx, w.as(member), { queue_id: queue.queue_id, last_event_id: -1 });
    must(await doDeactivateUser(w.ctx, w.as(w.owner), { user_id: member.id }));
    expect(must(await waiting).events).toEqual([]);
    expect((await getEvents(w.ctx, w.as(member), { queue_id: queue.queue_id, dont_block: true }))._unsafeUnwrapErr()).toMatchObject({
      code: 'BAD_EVENT_QUEUE_ID',
    });
  });
});

describe('bounds', () => {
  it('ends with BAD_EVENT_QUEUE_ID in `error` when the queue overflows, and a new stream has what was missed', async () => {
    const w = await makeWorld({ config: { timers: false, maxQueueLength: 2 } });
    const member = await w.addUser({ email: 'mel@example.com', fullName: 'Mel Member' });
    const stream = must(await openEventStream(w.ctx, w.as(member), { event_types: ['realm_user'] }));
    const iterator = stream[Symbol.asyncIterator]();
    const first = iterator.next();
    must(await doUpdateUser(w.ctx, w.as(w.owner), { user_id: member.id, full_name: 'One' }));
    expect((await first).value).toMatchObject({ person: { full_name: 'One' } });
    // The consumer is slow: two more changes arrive while event 0 is still unacknowledged.
    must(await doUpdateUser(w.ctx, w.as(w.owner), { user_id: member.id, full_name: 'Two' }));
    must(await doUpdateUser(w.ctx, w.as(w.owner), { user_id: member.id, full_name: 'Three' }));
    expect(await iterator.next()).toEqual({ done: true, value: undefined });
    expect(stream.error).toMatchObject({ code: 'BAD_EVENT_QUEUE_ID', data: { queue_id: stream.queueId } });
    const again = must(await openEventStream(w.ctx, w.as(member), { fetch_event_types: ['realm_user'] }));
    expect((again.state.realm_users as Array<{ user_id: number; full_name: string }>).find((u) => u.user_id === member.id)?.full_name).toBe('Three');
    again.close();
    expect(again.error).toBeNull();
  });

  it('a closed or shut-down stream has no error', async () => {
    const w = await makeWorld({ config: { timers: false } });
    const closed = must(await openEventStream(w.ctx, w.as(w.owner)));
    const next = closed[Symbol.asyncIterator]().next();
    closed.close();
    expect((await next).done).toBe(true);
    expect(closed.error).toBeNull();
    const shut = must(await openEventStream(w.ctx, w.as(w.owner)));
    const pending = shut[Symbol.asyncIterator]().next();
    w.ctx.queues.shutdown();
    expect((await pending).done).toBe(true);
    expect(shut.error).toBeNull();
  });
});
