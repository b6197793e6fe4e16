/**
 * The tab's event queue against a scripted client: the connection status through an outage,
 * events reaching the stores, re-registration replacing their contents, and sign-out on a
 * refused key. The client's real EventQueue runs; only the HTTP calls are scripted.
 */
import { ApiError, type Client, ConnectionError, EventQueue } from '@teamchat/client';
import { describe, expect, it, vi } from 'vitest';
import { type ConnectionStatus, createStatusStore, startLive } from '../../../packages/web/src/session/live';
import { countUnread } from '../../../packages/web/src/stores/unread';
import { BOB, GENERAL, channelMessage, registerFixture } from './fixtures/register';

type Poll = () => Promise<unknown>;

/** A client whose GET /events answers come from `polls`, in order; later polls wait until stop. */
function scriptedClient(polls: Poll[], register = () => Promise.resolve({ result: 'success', msg: '', ...registerFixture() })) {
  const calls = { register: 0, deleteQueue: 0 };
  const client = {
    register: () => {
      calls.register++;
      return register();
    },
    getEvents: (_params: unknown, options: { signal: AbortSignal }) =>
      polls.shift()?.() ??
      new Promise((_, reject) => options.signal.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')))),
    deleteQueue: () => {
      calls.deleteQueue++;
      return Promise.resolve({ result: 'success', msg: '' });
    },
    getServerSettings: () => Promise.resolve({ result: 'success', msg: '' }),
    updatePresence: () => Promise.resolve({ result: 'success', msg: '', presences: {} }),
    eventQueue: (options: ConstructorParameters<typeof EventQueue>[1]) => new EventQueue(client as unknown as Client, options),
  };
  return { client: client as unknown as Client, calls };
}

const events = (...list: unknown[]) => () => Promise.resolve({ result: 'success', msg: '', events: list });

describe('the live event queue', () => {
  it('applies events to the stores and reports an outage as reconnecting until an answer comes', async () => {
    const message = channelMessage({ id: 300, stream_id: GENERAL });
    const seen: ConnectionStatus[] = [];
    const status = createStatusStore();
    status.subscribe((value) => seen.push(value));
    const { client, calls } = scriptedClient([
      () => Promise.reject(new ConnectionError('down', 0)),
      () => Promise.reject(new ConnectionError('still down', 0)),
      events({ id: 0, type: 'message', message, flags: [] }),
    ]);
    const live = await startLive(client, { status, onReregistered: vi.fn(), onUnauthorized: vi.fn(), backoff: { initialMs: 5, maxMs: 10 }, probeMs: 1000 });
    await vi.waitFor(() => expect(countUnread(live.chat.unread.get()).total).toBe(5), { timeout: 10_000 });
    expect(seen).toEqual(['connected', 'reconnecting', 'connected']);
    await live.stop();
    expect(status.get()).toBe('signed-out');
    expect(calls.deleteQueue).toBe(1);
  });

  it('re-registers when the server forgot the queue, replacing the stores and asking for a reload', async () => {
    const fresh = registerFixture();
    fresh.unread_msgs = { count: 0, streams: [], pms: [], huddles: [], mentions: [] };
    let registrations = 0;
    const { client } = scriptedClient(
      [() => Promise.reject(new ApiError(400, { result: 'error', msg: 'Bad event queue ID', code: 'BAD_EVENT_QUEUE_ID' }))],
      () => Promise.resolve({ result: 'success', msg: '', ...(registrations++ === 0 ? registerFixture() : fresh), queue_id: `q${registrations}` }),
    );
    const onReregistered = vi.fn();
    const live = await startLive(client, { status: createStatusStore(), onReregistered, onUnauthorized: vi.fn() });
    const people = live.chat.people;
    expect(countUnread(live.chat.unread.get()).total).toBe(4);
    await vi.waitFor(() => expect(onReregistered).toHaveBeenCalledOnce(), { timeout: 10_000 });
    expect(countUnread(live.chat.unread.get()).total).toBe(0);
    // The same stores, new contents: subscribed components see the change.
    expect(live.chat.people).toBe(people);
    expect(live.chat.people.get().get(BOB)?.full_name).toBe('Bob Builder');
    await live.stop();
  });

  it('signs out when the key is refused', async () => {
    const { client } = scriptedClient([() => Promise.reject(new ApiError(401, { result: 'error', msg: 'Invalid API key', code: 'UNAUTHORIZED' }))]);
    const onUnauthorized = vi.fn();
    const live = await startLive(client, { status: createStatusStore(), onReregistered: vi.fn(), onUnauthorized });
    await vi.waitFor(() => expect(onUnauthorized).toHaveBeenCalledOnce(), { timeout: 10_000 });
    await live.stop();
  });

  it('fails to start when registering is refused', async () => {
    const { client } = scriptedClient([], () => Promise.reject(new ApiError(401, { result: 'error', msg: 'Account is deactivated', code: 'USER_DEACTIVATED' })));
    await expect(startLive(client, { status: createStatusStore(), onReregistered: vi.fn(), onUnauthorized: vi.fn() })).rejects.toMatchObject({ code: 'USER_DEACTIVATED' });
  });
});
