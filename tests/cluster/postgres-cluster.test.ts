/**
 * The PostgreSQL side of the cluster, without a storage driver: two or three members on one
 * scratch database, with transactions run by hand the way the driver runs them (callback,
 * writeStaged, COMMIT, after-commit callbacks).
 */
import {
  closeContext,
  createContext,
  createRealm,
  doRegister,
  doSendMessage,
  EventSequencer,
  getEvents,
  type PublishedEvent,
  silentLogger,
  type Tx,
} from '@teamchat/core/internal';
import { createPostgresStorage } from '@teamchat/postgres';
import { must, TEST_PASSWORD_HASH_COST } from '../helpers/core.js';
import postgres, { type Sql } from 'postgres';
import { afterEach, describe, expect, it } from 'vitest';
import { joinPostgresCluster, type PostgresClusterMember, pruneEvents } from '../../packages/postgres/src/cluster/index.js';
import { eventLogReader, newestEventId } from '../../packages/postgres/src/cluster/event-log.js';
import { untypedEvent } from '../helpers/events.js';
import { announceSkip, DATABASE_URL, type ScratchDatabase, scratchDatabase } from './database.js';

announceSkip('tests/cluster/postgres-cluster.test.ts');

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const event = (n: number): PublishedEvent => ({ realmId: 1, userIds: [1], event: untypedEvent({ type: 'test', n }) });
const numbers = (events: PublishedEvent[]) => events.map((p) => (p.event as unknown as { n: number }).n);

interface Node {
  member: PostgresClusterMember;
  delivered: PublishedEvent[];
  lost: number;
}

async function setUp(count: number, options: { eventRetentionMs?: number } = {}) {
  const db: ScratchDatabase = await scratchDatabase();
  cleanups.push(() => db.drop());
  const sql: Sql = postgres(db.url, { max: 8, onnotice: () => undefined });
  cleanups.push(() => sql.end({ timeout: 1 }));
  const nodes: Node[] = [];
  for (let i = 0; i < count; i++) {
    const member = await joinPostgresCluster({ url: db.url, nodeId: `n${i}`, heartbeatMs: 200, nodeTimeoutMs: 1000, ...options });
    cleanups.push(() => member.close());
    const node: Node = { member, delivered: [], lost: 0 };
    member.events.connect(
      (published) => node.delivered.push(published),
      () => node.lost++,
    );
    nodes.push(node);
  }
  return { db, sql, nodes };
}

/** A write transaction of `node` publishing `events`, committed (or rolled back) as the driver would. */
async function transaction(sql: Sql, node: Node, events: PublishedEvent[], rollBack = false): Promise<void> {
  const afterCommit: (() => void)[] = [];
  const tx = { afterCommit: (callback: () => void) => afterCommit.push(callback) } as unknown as Tx;
  try {
    await sql.begin(async (sqlTx) => {
      for (const published of events) node.member.events.stage(tx, published);
      await node.member.events.writeStaged(tx, sqlTx as unknown as Sql);
      if (rollBack) throw new Error('rolled back');
    });
  } catch (error) {
    if (!rollBack) throw error;
    return;
  }
  for (const callback of afterCommit) callback();
}

/** Waits until `check` passes (notifications take a moment). */
async function eventually(check: () => void, timeoutMs = 3000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      check();
      return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }
}

describe.skipIf(!DATABASE_URL)('a PostgreSQL cluster', () => {
  it('delivers a committed transaction’s events on every node, and nothing of a rollback', async () => {
    const { sql, nodes } = await setUp(2);
    const [a, b] = nodes as [Node, Node];
    await transaction(sql, a, [event(1), event(2)]);
    // The committing node delivers in its after-commit step (unless a read of the log is in
    // flight, as one is after every (re)connection: then right after it; see EventSequencer).
    await eventually(() => expect(numbers(a.delivered)).toEqual([1, 2]));
    await transaction(sql, b, [event(3)], true);
    await eventually(() => expect(numbers(b.delivered)).toEqual([1, 2]));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(numbers(a.delivered)).toEqual([1, 2]);
    expect(numbers(b.delivered)).toEqual([1, 2]);
    const [row] = await sql<{ count: string }[]>`SELECT count(*)::text AS count FROM teamchat_cluster_events`;
    expect(row!.count).toBe('2');
  });

  it('gives every node the same events in commit order, each once, under concurrent writers', async () => {
    const { sql, nodes } = await setUp(3);
    const writes: Promise<void>[] = [];
    // Over 500 events: past the 10 → 9 of text order, and more than one read batch for a late node.
    for (let i = 0; i < 300; i++) writes.push(transaction(sql, nodes[i % 3]!, [event(i * 2), event(i * 2 + 1)]));
    await Promise.all(writes);
    await eventually(() => {
      for (const node of nodes) expect(node.delivered).toHaveLength(600);
    }, 10_000);
    const order = numbers(nodes[0]!.delivered);
    for (const node of nodes) expect(numbers(node.delivered)).toEqual(order);
    // A transaction's own events stay together and in order.
    for (let i = 0; i < order.length; i += 2) expect(order[i + 1]).toBe(order[i]! + 1);
    const ids = await sql<{ id: string }[]>`SELECT id::text FROM teamchat_cluster_events ORDER BY id`;
    expect(new Set(ids.map((r) => r.id)).size).toBe(600);
  });

  it('carries transient events in the notification, and a large one through the log, once each', async () => {
    const { sql, nodes } = await setUp(2);
    const [a, b] = nodes as [Node, Node];
    a.member.events.broadcast(event(7));
    expect(numbers(a.delivered)).toEqual([7]);
    await eventually(() => expect(numbers(b.delivered)).toEqual([7]));
    const large: PublishedEvent = { realmId: 1, userIds: [1], event: untypedEvent({ type: 'test', n: 8, padding: 'x'.repeat(10_000) }) };
    a.member.events.broadcast(large);
    await eventually(() => {
      expect(numbers(a.delivered)).toEqual([7, 8]);
      expect(numbers(b.delivered)).toEqual([7, 8]);
    });
    const [row] = await sql<{ count: string }[]>`SELECT count(*)::text AS count FROM teamchat_cluster_events`;
    expect(row!.count).toBe('1');
  });

  it('catches up a node that started late from what was committed while it joined', async () => {
    const { db, sql, nodes } = await setUp(1);
    const [a] = nodes as [Node];
    const late = await joinPostgresCluster({ url: db.url, nodeId: 'late' });
    cleanups.push(() => late.close());
    const delivered: PublishedEvent[] = [];
    late.events.connect((p) => delivered.push(p), () => undefined);
    await transaction(sql, a, [event(1)]);
    await eventually(() => expect(numbers(delivered)).toEqual([1]));
  });

  it('prunes old events and tells a reader that had not read them that they are lost', async () => {
    const { sql, nodes } = await setUp(1);
    await transaction(sql, nodes[0]!, [event(1), event(2)]);
    // A reader that had delivered nothing yet (a node cut off since before these events).
    const gaps: number[] = [];
    const delivered: PublishedEvent[] = [];
    const behind = new EventSequencer(eventLogReader(sql), (p) => delivered.push(p), silentLogger, 0, () => gaps.push(1));
    expect(await pruneEvents(sql, 60_000)).toBe(0);
    expect(await pruneEvents(sql, 0)).toBe(2);
    await transaction(sql, nodes[0]!, [event(3)]);
    await behind.catchUp();
    expect(gaps).toHaveLength(1);
    expect(numbers(delivered)).toEqual([3]);
    // A node starting now begins after everything pruned or written.
    expect(await newestEventId(sql)).toBe(3);
  });

  it('finds live nodes by ID, and none once one left or stopped beating', async () => {
    const { db, nodes } = await setUp(2);
    const [a, b] = nodes as [Node, Node];
    await b.member.announce('http://10.0.0.2:9991');
    expect(await a.member.nodes.urlOf('n1')).toBe('http://10.0.0.2:9991');
    expect(await a.member.nodes.urlOf('nobody')).toBeNull();
    const silent = await joinPostgresCluster({ url: db.url, nodeId: 'silent', heartbeatMs: 60_000, nodeTimeoutMs: 300 });
    await silent.announce('http://10.0.0.3:9991');
    expect(await silent.nodes.urlOf('silent')).toBe('http://10.0.0.3:9991');
    await new Promise((resolve) => setTimeout(resolve, 1300));
    expect(await a.member.nodes.urlOf('silent')).toBeNull();
    await silent.close();
    await b.member.close();
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect(await a.member.nodes.urlOf('n1')).toBeNull();
  });

  it('runs an exclusive job on one node at a time and once per interval, across nodes', async () => {
    const { nodes } = await setUp(2);
    const [a, b] = nodes as [Node, Node];
    let runs = 0;
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const first = a.member.jobs.runExclusive('sweep', 60_000, async () => {
      runs++;
      await held;
    });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await b.member.jobs.runExclusive('sweep', 60_000, async () => runs++)).toBe(false);
    release();
    expect(await first).toBe(true);
    expect(await b.member.jobs.runExclusive('sweep', 60_000, async () => runs++)).toBe(false);
    expect(await b.member.jobs.runExclusive('sweep', 0, async () => runs++)).toBe(true);
    // A job that throws releases the lock all the same.
    await expect(a.member.jobs.runExclusive('failing', 0, async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(await b.member.jobs.runExclusive('failing', 0, async () => runs++)).toBe(true);
    expect(runs).toBe(3);
  });

  it('runs two contexts as nodes on the driver: events cross, and a read knows its snapshot’s newest event', async () => {
    const db = await scratchDatabase();
    cleanups.push(() => db.drop());
    const node = async (nodeId: string) => {
      const member = await joinPostgresCluster({ url: db.url, nodeId });
      const storage = createPostgresStorage({ url: db.url, events: member.events });
      const ctx = createContext({ storage, cluster: member, config: { timers: false, passwordHashCost: TEST_PASSWORD_HASH_COST } });
      cleanups.push(() => closeContext(ctx));
      return ctx;
    };
    const a = await node('a');
    const b = await node('b');
    const { realm, owner } = must(
      await createRealm(a, { name: 'Org', url: 'http://chat.example.com', owner: { email: 'owner@example.com', fullName: 'Owner', password: 'owner-password' } }),
    );
    const caller = { realm, user: owner };
    const registered = must(await doRegister.fromTransport(a, caller, { event_types: '["message"]', fetch_event_types: '[]' })) as { queue_id: string };
    const sent = must(await doSendMessage(b, caller, { type: 'direct', to: JSON.stringify([owner.id]), content: 'through the driver' })) as { id: number };
    // A long-poll: answered as soon as the event crosses (at once if it already has).
    const polled = must(await getEvents.fromTransport(a, caller, { queue_id: registered.queue_id, last_event_id: '-1' }));
    expect(polled.events.map((e) => (e as unknown as { message: { id: number } }).message.id)).toEqual([sent.id]);
    // The driver's read snapshot carries the log's newest ID into its first step.
    const admin = postgres(db.url, { max: 1 });
    const [newest] = await admin`SELECT max(id)::text AS id FROM teamchat_cluster_events`;
    await admin.end();
    const seen = await a.storage.read(async () => a.cluster!.events.snapshotEventId!());
    expect(seen).toBe(Number(newest!.id));
    expect(a.cluster!.events.snapshotEventId!()).toBeNull();
  });

  it('shares login attempts between nodes', async () => {
    const { nodes } = await setUp(2);
    const [a, b] = nodes as [Node, Node];
    const received: unknown[] = [];
    b.member.loginAttempts!.receive((change) => received.push(change));
    a.member.loginAttempts!.receive(() => received.push('echo'));
    a.member.loginAttempts!.send({ op: 'begin', attempt: { realmId: 1, email: 'x@example.com', clientIp: '203.0.113.1' } });
    await eventually(() => expect(received).toEqual([{ op: 'begin', attempt: { realmId: 1, email: 'x@example.com', clientIp: '203.0.113.1' } }]));
  });
});
