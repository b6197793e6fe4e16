/**
 * The event-queue helper against a real server: typed events through the iterator and the
 * callback, heartbeats, backoff on network errors and 5xx, re-registration after the server
 * forgets the queue, a fatal error, and a clean stop that deletes the queue.
 */
import { ApiError, backoffDelay, type QueueItem } from '@teamchat/client';
import { afterEach, describe, expect, it } from 'vitest';
import { closeServers } from '../helpers/http.js';
import { clientFor, clientWorld } from './helpers.js';

afterEach(closeServers);

/** The next item of an iterator, failing the test after `ms`. */
async function next(iterator: AsyncIterator<QueueItem>, ms = 5000): Promise<QueueItem> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`no item within ${ms} ms`)), ms)));
  try {
    const result = await Promise.race([iterator.next(), timeout]);
    if (result.done) throw new Error('the queue ended');
    return result.value;
  } finally {
    clearTimeout(timer);
  }
}

/** A message's content from a queue item that must be a message event. */
function messageContent(item: QueueItem) {
  if (item.type !== 'message') throw new Error(`expected a message event, got ${item.type}`);
  return item.message.content;
}

describe('@teamchat/client event queue', () => {
  it('registers with options, yields typed events in order with their IDs, and stop() ends iteration and deletes the queue', async () => {
    const { owner, mel } = await clientWorld();
    const queue = mel.eventQueue({ register: { event_types: ['message'], apply_markdown: false } });
    const state = await queue.start();
    expect(state).toMatchObject({ result: 'success', queue_id: expect.any(String), last_event_id: -1 });
    expect(queue.queueId).toBe(state.queue_id);
    const items = queue[Symbol.asyncIterator]();

    await owner.sendMessage({ type: 'direct', to: 'mel@example.com', content: 'one *two*' });
    await owner.sendTyping({ op: 'start', to: [2] });
    await owner.sendMessage({ type: 'direct', to: 'mel@example.com', content: 'three' });
    const first = await next(items);
    expect(first).toMatchObject({ id: 0, type: 'message', flags: [] });
    expect(messageContent(first)).toBe('one *two*');
    expect(messageContent(await next(items))).toBe('three');
    expect(queue.lastEventId).toBe(1);

    await queue.stop();
    await expect(items.next()).resolves.toEqual({ done: true, value: undefined });
    await expect(mel.getEvents({ queue_id: state.queue_id, last_event_id: 1, dont_block: true })).rejects.toMatchObject({
      code: 'BAD_EVENT_QUEUE_ID',
      data: { queue_id: state.queue_id },
    });
  });

  it('the callback API: each item to onItem, with a narrow and client capabilities passed to register', async () => {
    const { owner, mel, member, server } = await clientWorld();
    await owner.createChannel({ name: 'general', subscribers: [member.id, server.world.owner.id] });
    const received: QueueItem[] = [];
    const queue = mel.eventQueue({
      register: { event_types: ['message'], narrow: [['channel', 'general']], apply_markdown: true, client_capabilities: { notification_settings_null: true } },
      onItem: (item) => received.push(item),
    });
    await queue.start();
    await owner.sendMessage({ type: 'direct', to: 'mel@example.com', content: 'outside the narrow' });
    await owner.sendMessage({ type: 'stream', to: 'general', topic: 'news', content: 'inside' });
    await expect.poll(() => received.length).toBe(1);
    expect(messageContent(received[0]!)).toBe('<p>inside</p>');
    await queue.stop();
  });

  it('heartbeats advance the last event ID and are yielded only when asked for', async () => {
    const { mel } = await clientWorld({ timers: true, heartbeatSeconds: 0.2, heartbeatJitterSeconds: 0 });
    const quiet = mel.eventQueue();
    const loud = mel.eventQueue({ heartbeats: true });
    await quiet.start();
    const items = loud[Symbol.asyncIterator]();
    expect(await next(items)).toEqual({ id: 0, type: 'heartbeat' });
    expect(await next(items)).toEqual({ id: 1, type: 'heartbeat' });
    await expect.poll(() => quiet.lastEventId, { timeout: 5000 }).toBeGreaterThanOrEqual(1);
    await Promise.all([quiet.stop(), loud.stop()]);
  });

  it('retries network errors and 5xx answers with growing, jittered delays, then carries on', async () => {
    const { server, world, owner } = await clientWorld();
    let failures = 0;
    // Three polls fail: a refused connection, a proxy's 502 page, a 503 from the API.
    const flaky: typeof fetch = async (input, init) => {
      const request = new Request(input, init);
      if (request.method === 'GET' && new URL(request.url).pathname === '/api/v1/events' && failures < 3) {
        failures++;
        if (failures === 1) throw new TypeError('fetch failed');
        if (failures === 2) return new Response('<h1>Bad Gateway</h1>', { status: 502 });
        return Response.json({ result: 'error', msg: 'Try later', code: 'INTERNAL_SERVER_ERROR' }, { status: 503 });
      }
      return fetch(request);
    };
    const flo = clientFor(server, await world.addUser({ email: 'flo@example.com', fullName: 'Flo' }), flaky);
    const retries: { attempt: number; delayMs: number }[] = [];
    const queue = flo.eventQueue({
      register: { event_types: ['message'] },
      backoff: { initialMs: 20, maxMs: 1000, random: () => 0.5 },
      onRetry: ({ attempt, delayMs }) => retries.push({ attempt, delayMs }),
    });
    const items = queue[Symbol.asyncIterator]();
    const first = next(items);
    await expect.poll(() => retries.length).toBe(3);
    await owner.sendMessage({ type: 'direct', to: 'flo@example.com', content: 'made it' });
    expect(messageContent(await first)).toBe('made it');
    // Ceilings 20, 40, 80 ms; with random 0.5 each delay is three quarters of its ceiling.
    expect(retries).toEqual([
      { attempt: 1, delayMs: 15 },
      { attempt: 2, delayMs: 30 },
      { attempt: 3, delayMs: 60 },
    ]);
    await queue.stop();
  });

  it('waits out RATE_LIMIT_HIT for its retry-after before polling again', async () => {
    const { server, world, owner } = await clientWorld();
    let limited = false;
    const limiting: typeof fetch = async (input, init) => {
      const request = new Request(input, init);
      if (request.method === 'GET' && new URL(request.url).pathname === '/api/v1/events' && !limited) {
        limited = true;
        const body = { result: 'error', msg: 'API usage exceeded rate limit', code: 'RATE_LIMIT_HIT', 'retry-after': 0.05 };
        return Response.json(body, { status: 429, headers: { 'retry-after': '0.05' } });
      }
      return fetch(request);
    };
    const flo = clientFor(server, await world.addUser({ email: 'flo@example.com', fullName: 'Flo' }), limiting);
    const retries: { attempt: number; delayMs: number; error: unknown }[] = [];
    const queue = flo.eventQueue({ register: { event_types: ['message'] }, onRetry: (retry) => retries.push(retry) });
    const items = queue[Symbol.asyncIterator]();
    const first = next(items);
    await expect.poll(() => retries.length).toBe(1);
    expect(retries[0]).toMatchObject({ delayMs: 50, error: { code: 'RATE_LIMIT_HIT', retryAfter: 0.05 } });
    await owner.sendMessage({ type: 'direct', to: 'flo@example.com', content: 'patience' });
    expect(messageContent(await first)).toBe('patience');
    await queue.stop();
  });

  it('re-registers when the server answers BAD_EVENT_QUEUE_ID, tells the caller to refetch, and receives on the new queue', async () => {
    const { owner, mel } = await clientWorld();
    const queue = mel.eventQueue({ register: { event_types: ['message'] } });
    const items = queue[Symbol.asyncIterator]();
    const firstItem = next(items);
    await expect.poll(() => queue.queueId).toBeDefined();
    const lost = queue.queueId!;
    // Another client of the same account ends this queue (as the server does to an idle or overfull one).
    await mel.deleteQueue({ queue_id: lost });

    const notice = await firstItem;
    if (notice.type !== 'queue_reregistered') throw new Error(`expected the notice, got ${notice.type}`);
    expect(notice.reason).toBeInstanceOf(ApiError);
    expect(notice.reason.code).toBe('BAD_EVENT_QUEUE_ID');
    expect(notice.state.queue_id).not.toBe(lost);
    expect(queue.queueId).toBe(notice.state.queue_id);
    await owner.sendMessage({ type: 'direct', to: 'mel@example.com', content: 'after' });
    expect(messageContent(await next(items))).toBe('after');
    await queue.stop();
  });

  it('a fatal error (credentials refused mid-stream) ends the loop: onError, and the iterator throws it', async () => {
    const { server, world, owner } = await clientWorld();
    // From the second poll on, the key sent is one the server no longer accepts (as after a key regeneration elsewhere).
    let polls = 0;
    const revoking: typeof fetch = async (input, init) => {
      const request = new Request(input, init);
      if (request.method === 'GET' && new URL(request.url).pathname === '/api/v1/events' && ++polls > 1) {
        request.headers.set('authorization', `Basic ${btoa('flo@example.com:revoked')}`);
      }
      return fetch(request);
    };
    const floUser = await world.addUser({ email: 'flo@example.com', fullName: 'Flo' });
    const flo = clientFor(server, floUser, revoking);
    const errors: unknown[] = [];
    const queue = flo.eventQueue({ register: { event_types: ['message'] }, onError: (error) => errors.push(error) });
    const items = queue[Symbol.asyncIterator]();
    const first = next(items);
    await expect.poll(() => polls).toBe(1);
    await owner.sendMessage({ type: 'direct', to: 'flo@example.com', content: 'last one' });
    expect(messageContent(await first)).toBe('last one');
    await expect(items.next()).rejects.toMatchObject({ code: 'UNAUTHORIZED', status: 401 });
    expect(errors).toMatchObject([{ code: 'UNAUTHORIZED' }]);
    // stop() still deletes the server's queue.
    const queueId = queue.queueId!;
    await queue.stop();
    await expect(clientFor(server, floUser).getEvents({ queue_id: queueId, dont_block: true })).rejects.toMatchObject({ code: 'BAD_EVENT_QUEUE_ID' });
  });

  it('backoffDelay doubles its ceiling per attempt up to maxMs and draws from the upper half', () => {
    const at = (attempt: number, random: number) => backoffDelay(attempt, { initialMs: 100, maxMs: 1000, random: () => random });
    expect([1, 2, 3, 4, 5].map((a) => at(a, 0))).toEqual([50, 100, 200, 400, 500]);
    expect([1, 2, 3, 4, 5].map((a) => at(a, 0.99))).toEqual([100, 199, 398, 796, 995]);
  });
});
