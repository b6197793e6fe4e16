/**
 * The core's side of several processes on one database, with the in-process MemoryCluster:
 * two contexts share one storage, each with its own queues, as two `teamchat serve` processes
 * would. Events cross between them, queue IDs name their node, housekeeping runs on one node,
 * and login limits count attempts made at either.
 */
import {
  type ClusterMember,
  createContext,
  createMemoryCluster,
  type Ctx,
  type EventQueue,
  doDeactivateUser,
  doFetchApiKey,
  doInviteUsers,
  flushOutbox,
  memoryMailer,
  doRegister,
  doSendMessage,
  doSendTyping,
  doSubscribe,
  doUpdateUser,
  ROLE,
  getEvents,
  nodeOfQueue,
  type PublishedEvent,
  QueueRegistry,
  silentLogger,
  systemClock,
  publishOnCommit,
  routeQueue,
  startBackgroundWork,
} from '@teamchat/core/internal';
import { err } from 'neverthrow';
import { afterEach, describe, expect, it } from 'vitest';
import { makeWorld, must, TEST_PASSWORD_HASH_COST } from '../helpers/core.js';
import { QUEUE_OPTIONS, untypedEvent } from '../helpers/events.js';

const contexts: Ctx[] = [];
afterEach(async () => {
  for (const ctx of contexts.splice(0)) await ctx.cluster?.close();
});

/** A world on node `a`, and a second context on node `b` over the same storage. */
async function twoNodes() {
  const cluster = createMemoryCluster();
  const w = await makeWorld({ cluster: cluster.join('a', 'http://a.internal'), config: { timers: false } });
  const b = createContext({ storage: w.ctx.storage, cluster: cluster.join('b', 'http://b.internal'), config: { timers: false, passwordHashCost: TEST_PASSWORD_HASH_COST } });
  contexts.push(w.ctx, b);
  const alice = await w.addUser({ email: 'alice@example.com', fullName: 'Alice' });
  const bob = await w.addUser({ email: 'bob@example.com', fullName: 'Bob', password: 'bob-password' });
  return { cluster, w, a: w.ctx, b, alice, bob };
}

/** Lets notifications cross and the other node read the log. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 20));

describe('a cluster of contexts on one storage', () => {
  it('delivers a message sent through one node into a queue registered on the other, with a queue ID naming its node', async () => {
    const { w, a, b, alice, bob } = await twoNodes();
    const registered = must(await doRegister.fromTransport(a, w.as(bob), { event_types: '["message"]', fetch_event_types: '[]' })) as { queue_id: string };
    expect(nodeOfQueue(registered.queue_id)).toBe('a');
    expect(registered.queue_id).toMatch(/^a\.[0-9a-f-]{36}$/);
    const sent = must(await doSendMessage(b, w.as(alice), { type: 'direct', to: JSON.stringify([bob.id]), content: 'across nodes' })) as { id: number };
    await settle();
    const polled = must(await getEvents(a, w.as(bob), { queue_id: registered.queue_id, dont_block: true }));
    expect(polled.events.map((e) => [e.type, 'message' in e ? (e.message as { id: number }).id : null])).toEqual([['message', sent.id]]);
    // The queue lives on its node only: the other node does not know it.
    const onB = await getEvents(b, w.as(bob), { queue_id: registered.queue_id, dont_block: true });
    expect(onB.isErr() && onB.error.code).toBe('BAD_EVENT_QUEUE_ID');
  });

  it('records a transaction’s events with it, delivers each once on every node, and nothing for a transaction that rolled back', async () => {
    const { cluster, w, a, b, alice, bob } = await twoNodes();
    const heardOnA: string[] = [];
    a.events.subscribe(({ event }) => heardOnA.push(event.type));
    const before = cluster.log.length;
    must(await doSendMessage(b, w.as(alice), { type: 'direct', to: JSON.stringify([bob.id]), content: 'one' }));
    await b.storage.transaction(async (tx) => {
      publishOnCommit(b, tx, { realmId: w.realm.id, userIds: [bob.id], event: untypedEvent({ type: 'never' }) });
      return err('rolled back');
    });
    await settle();
    const recorded = cluster.log.slice(before).map((e) => e.published.event.type);
    expect(recorded.filter((type) => type === 'message').length).toBeGreaterThan(0);
    expect(recorded).not.toContain('never');
    // Subscribers of a node's bus (the scheduler, embedders) hear every node's events, once.
    expect(heardOnA.filter((type) => type === 'message')).toHaveLength(recorded.filter((type) => type === 'message').length);
    expect(heardOnA).not.toContain('never');
  });

  it('keeps a queue’s events in commit order when both nodes write', async () => {
    const { w, a, b, alice, bob } = await twoNodes();
    const registered = must(await doRegister.fromTransport(a, w.as(bob), { event_types: '["message"]', fetch_event_types: '[]' })) as { queue_id: string };
    const sent: number[] = [];
    for (let i = 0; i < 6; i++) {
      const node = i % 2 === 0 ? a : b;
      sent.push((must(await doSendMessage(node, w.as(alice), { type: 'direct', to: JSON.stringify([bob.id]), content: `m${i}` })) as { id: number }).id);
    }
    await settle();
    const polled = must(await getEvents(a, w.as(bob), { queue_id: registered.queue_id, dont_block: true }));
    expect(polled.events.map((e) => (e as unknown as { message: { id: number } }).message.id)).toEqual(sent);
  });

  it('catches up from the log after missing notifications, and ends its queues when what it missed was pruned', async () => {
    const { cluster, w, a, b, alice, bob } = await twoNodes();
    const register = async () => (must(await doRegister.fromTransport(a, w.as(bob), { event_types: '["message"]', fetch_event_types: '[]' })) as { queue_id: string }).queue_id;
    const send = async (content: string) => must(await doSendMessage(b, w.as(alice), { type: 'direct', to: JSON.stringify([bob.id]), content }));
    const poll = (queueId: string) => getEvents(a, w.as(bob), { queue_id: queueId, dont_block: true });
    const first = await register();
    cluster.disconnect('a');
    await send('while a was cut off');
    await settle();
    expect(must(await poll(first)).events).toEqual([]);
    await cluster.reconnect('a');
    expect(must(await poll(first)).events.map((e) => (e as unknown as { message: { content: string } }).message.content)).toEqual([
      expect.stringContaining('while a was cut off'),
    ]);

    const second = await register();
    cluster.disconnect('a');
    await send('pruned before a read it');
    cluster.prune(cluster.log[cluster.log.length - 1]!.id);
    await cluster.reconnect('a');
    const ended = await poll(second);
    expect(ended.isErr() && ended.error.code).toBe('BAD_EVENT_QUEUE_ID');
    // A queue registered afterwards works again.
    const third = await register();
    await send('after the gap');
    await settle();
    expect(must(await poll(third)).events).toHaveLength(1);
  });

  it('drops a deactivated user’s queues on every node, not only where the deactivation committed', async () => {
    const { w, a, b, bob } = await twoNodes();
    const onA = (must(await doRegister.fromTransport(a, w.as(bob), { fetch_event_types: '[]' })) as { queue_id: string }).queue_id;
    const onB = (must(await doRegister.fromTransport(b, w.as(bob), { fetch_event_types: '[]' })) as { queue_id: string }).queue_id;
    const waiting = getEvents(a, w.as(bob), { queue_id: onA });
    must(await doDeactivateUser(b, w.as(w.owner), { user_id: bob.id }));
    // The waiting poll on the other node is answered, and the queue is gone there too.
    expect((await waiting).isOk()).toBe(true);
    await settle();
    for (const [ctx, queueId] of [[a, onA], [b, onB]] as const) {
      const polled = await getEvents(ctx, w.as(bob), { queue_id: queueId, dont_block: true });
      expect(polled.isErr() && polled.error.code).toBe('BAD_EVENT_QUEUE_ID');
    }
  });

  it('stops public channels reaching a user’s all_public_streams queue on every node once the user is a guest', async () => {
    const { w, a, b, alice, bob } = await twoNodes();
    must(await doSubscribe(b, w.as(alice), { subscriptions: [{ name: 'lobby' }] }));
    const { queue_id } = must(await doRegister(a, w.as(bob), { event_types: ['message'], all_public_streams: true, fetch_event_types: [] }));
    const post = async (content: string) =>
      must(await doSendMessage(b, w.as(alice), { type: 'stream', to: 'lobby', topic: 'news', content })).id;
    const asMember = await post('while a member');
    must(await doUpdateUser(b, w.as(w.owner), { user_id: bob.id, role: ROLE.guest }));
    await post('while a guest');
    must(await doUpdateUser(b, w.as(w.owner), { user_id: bob.id, role: ROLE.member }));
    const asMemberAgain = await post('a member again');
    await settle();
    const polled = must(await getEvents(a, w.as(bob), { queue_id: queue_id!, dont_block: true }));
    const received = polled.events.flatMap((e) => (e.type === 'message' ? [e.message.id] : []));
    expect(received).toEqual([asMember, asMemberAgain]);
  });

  it('gives a queue registered while its node lags exactly the events its snapshot does not hold', async () => {
    const { cluster, w, a, b, alice, bob } = await twoNodes();
    const send = async (node: Ctx, content: string) =>
      (must(await doSendMessage(node, w.as(alice), { type: 'direct', to: JSON.stringify([bob.id]), content })) as { id: number }).id;
    const messageIds = async (queueId: string) =>
      must(await getEvents(a, w.as(bob), { queue_id: queueId, dont_block: true })).events.map((e) => (e as unknown as { message: { id: number } }).message.id);
    const before = (must(await doRegister.fromTransport(a, w.as(bob), { event_types: '["message"]', fetch_event_types: '[]' })) as { queue_id: string }).queue_id;
    cluster.disconnect('a');
    const first = await send(b, 'committed before the snapshot, delivered after it');
    const registered = must(await doRegister.fromTransport(a, w.as(bob), { event_types: '["message"]' })) as { queue_id: string; recent_private_conversations?: unknown };
    await cluster.reconnect('a');
    const second = await send(b, 'after the snapshot');
    await settle();
    expect(await messageIds(before)).toEqual([first, second]);
    // The snapshot already held the first message: the queue takes only the second.
    expect(await messageIds(registered.queue_id)).toEqual([second]);
  });

  it('carries transient events (typing) to the other node without recording them', async () => {
    const { cluster, w, a, b, alice, bob } = await twoNodes();
    const registered = must(await doRegister.fromTransport(a, w.as(bob), { event_types: '["typing"]', fetch_event_types: '[]' })) as { queue_id: string };
    const before = cluster.log.length;
    must(await doSendTyping(b, w.as(alice), { op: 'start', to: [bob.id] }));
    await settle();
    const polled = must(await getEvents(a, w.as(bob), { queue_id: registered.queue_id, dont_block: true }));
    expect(polled.events.map((e) => [e.type, 'op' in e ? e.op : null])).toEqual([['typing', 'start']]);
    expect(cluster.log.length).toBe(before);
  });

  it('counts login attempts made at either node against the same limits', async () => {
    const cluster = createMemoryCluster();
    const config = { timers: false, loginFailureLimit: 3 };
    const w = await makeWorld({ cluster: cluster.join('a'), config });
    const b = createContext({ storage: w.ctx.storage, cluster: cluster.join('b'), config: { ...config, passwordHashCost: TEST_PASSWORD_HASH_COST } });
    contexts.push(w.ctx, b);
    const attempt = (ctx: Ctx) => doFetchApiKey(ctx, { realm: w.realm, user: null, clientIp: '203.0.113.9' }, { username: 'owner@example.com', password: 'wrong' });
    const codes: string[] = [];
    for (const ctx of [w.ctx, b, w.ctx, b]) codes.push((await attempt(ctx)).match(() => 'ok', (e) => e.code));
    expect(codes).toEqual(['AUTHENTICATION_FAILED', 'AUTHENTICATION_FAILED', 'AUTHENTICATION_FAILED', 'RATE_LIMIT_HIT']);
    expect(w.ctx.loginLimits.retryAfter({ realmId: w.realm.id, email: 'owner@example.com', clientIp: '203.0.113.9' })).toBeGreaterThan(0);
  });

  it('routes a queue ID to its owner: here, another live node, or a node that is gone', async () => {
    const { cluster, a, b } = await twoNodes();
    expect(await routeQueue(a, 'a.0b4c')).toEqual({ kind: 'local' });
    expect(await routeQueue(a, 'b.0b4c')).toEqual({ kind: 'remote', nodeId: 'b', url: 'http://b.internal' });
    expect(await routeQueue(a, 'c.0b4c')).toEqual({ kind: 'gone', nodeId: 'c' });
    // No node named (a queue of a single process, or made up): the registry answers.
    expect(await routeQueue(a, '0b4c12ab-0000')).toEqual({ kind: 'local' });
    // Forwarded once already: answered where it landed, so that nodes never bounce a request.
    expect(await routeQueue(a, 'b.0b4c', true)).toEqual({ kind: 'local' });
    await (b.cluster as ClusterMember).close();
    expect(await routeQueue(a, 'b.0b4c')).toEqual({ kind: 'gone', nodeId: 'b' });
    expect(cluster.join('b', 'http://b2.internal').nodeId).toBe('b');
  });
});

describe('a queue registered on a snapshot (QueueRegistry in a cluster)', () => {
  const published = (n: number): PublishedEvent => ({ realmId: 1, userIds: [7], event: untypedEvent({ type: 'test', n }) });
  function registry(snapshot: () => number | null) {
    return new QueueRegistry(systemClock, {
      heartbeatSecs: 60,
      heartbeatJitterSecs: 0,
      gcIntervalSecs: 600,
      maxQueueLength: 100,
      maxQueueBytes: 1_000_000,
      maxQueuesPerUser: 10,
      fanoutBatchSize: 100,
      timers: false,
      logger: silentLogger,
      nodeId: 'n1',
      snapshotEventId: snapshot,
    });
  }
  const held = (queue: EventQueue) => queue.pending().map((e) => (e as unknown as { n: number }).n);

  it('takes the events after its snapshot that reached the node before it, and skips those before that arrive later', () => {
    let snapshot: number | null = null;
    const queues = registry(() => snapshot);
    queues.deliver(published(1), 1);
    queues.deliver(published(2), 2);
    snapshot = 1;
    const queue = queues.create(1, 7, QUEUE_OPTIONS);
    snapshot = null;
    expect(queue.id).toMatch(/^n1\./);
    expect(held(queue)).toEqual([2]);
    queues.deliver(published(3), 3);
    expect(held(queue)).toEqual([2, 3]);

    snapshot = 5;
    const ahead = queues.create(1, 7, QUEUE_OPTIONS);
    snapshot = null;
    for (const id of [4, 5, 6]) queues.deliver(published(id), id);
    expect(held(ahead)).toEqual([6]);
    // Transient events have no log ID: every queue takes them.
    queues.deliver(published(99));
    expect(held(ahead)).toEqual([6, 99]);
  });

  it('ends a queue whose snapshot is older than the events it keeps', () => {
    let snapshot: number | null = null;
    const queues = registry(() => snapshot);
    for (let id = 1; id <= 1100; id++) queues.deliver(published(id), id);
    snapshot = 10;
    const queue = queues.create(1, 7, QUEUE_OPTIONS);
    expect(queues.get(queue.id, 7).isErr()).toBe(true);
  });
});

describe('housekeeping across nodes', () => {
  it('runs an exclusive job on one node at a time, and not again within its interval', async () => {
    const { a, b } = await twoNodes();
    let runs = 0;
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const first = a.cluster!.jobs.runExclusive('sweep', 60_000, async () => {
      runs++;
      await held;
    });
    expect(await b.cluster!.jobs.runExclusive('sweep', 60_000, async () => runs++)).toBe(false);
    release();
    expect(await first).toBe(true);
    expect(await b.cluster!.jobs.runExclusive('sweep', 60_000, async () => runs++)).toBe(false);
    expect(await b.cluster!.jobs.runExclusive('other', 60_000, async () => runs++)).toBe(true);
    expect(await b.cluster!.jobs.runExclusive('sweep', 0, async () => runs++)).toBe(true);
    expect(runs).toBe(3);
  });

  it('sends outbox mail once when two nodes flush at the same time', async () => {
    const cluster = createMemoryCluster();
    const mailer = memoryMailer();
    const w = await makeWorld({ cluster: cluster.join('a'), mailer, config: { timers: false } });
    const b = createContext({ storage: w.ctx.storage, cluster: cluster.join('b'), mailer, config: { timers: false } });
    contexts.push(w.ctx, b);
    must(await doInviteUsers.fromTransport(w.ctx, w.as(w.owner), { invitee_emails: 'new@example.com', stream_ids: '[]' }));
    await Promise.all([flushOutbox(w.ctx), flushOutbox(b)]);
    await flushOutbox(b);
    expect(mailer.sent.map((mail) => mail.to)).toEqual(['new@example.com']);
  });

  it('sweeps unused uploads once across nodes whose background work starts together', async () => {
    const { a, b } = await twoNodes();
    const runs: string[] = [];
    const original = a.cluster!.jobs.runExclusive.bind(a.cluster!.jobs);
    for (const [name, ctx] of [['a', a], ['b', b]] as const) {
      ctx.cluster!.jobs.runExclusive = async (job, interval, fn) => original(job, interval, async () => {
        runs.push(`${name}:${job}`);
        await fn();
      });
    }
    const workA = startBackgroundWork(a);
    const workB = startBackgroundWork(b);
    await settle();
    await Promise.all([workA.stop(), workB.stop()]);
    expect(runs.filter((run) => run.endsWith('sweeping unused uploads'))).toHaveLength(1);
    expect(runs.filter((run) => run.endsWith('message retention sweep'))).toHaveLength(1);
  });
});
