/**
 * Presence on two nodes of a cluster (two contexts in this process, each on its own PostgreSQL
 * driver and cluster member, each served over HTTP): a report made to one node is seen through
 * the other's GET /realm/presence, GET /users/{id}/presence and register once the nodes have
 * flushed (every second on a cluster; the tests flush by hand, on a shared fake clock), with the
 * same `last_update_id` and entries on both.
 */
import {
  type Ctx,
  createContext,
  createRealm,
  createUserAsOperator,
  flushPresence,
  startPresenceFlush,
  type User,
} from '@teamchat/core/internal';
import { createPostgresStorage } from '@teamchat/postgres';
import { afterEach, describe, expect, it } from 'vitest';
import { joinPostgresCluster } from '../../packages/postgres/src/cluster/index.js';
import { fakeClock, T0 } from '../core/fixtures.js';
import { must, TEST_PASSWORD_HASH_COST } from '../helpers/core.js';
import { type ApiResponse, call, closeServers, expectSuccess, startServer, type TestServer } from '../helpers/http.js';
import { announceSkip, DATABASE_URL, scratchDatabase } from './database.js';

announceSkip('tests/cluster/presence-cluster.test.ts');

const S0 = Math.floor(T0 / 1000);

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  await closeServers();
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function setUp() {
  const db = await scratchDatabase();
  cleanups.push(() => db.drop());
  const clock = fakeClock();
  const node = async (nodeId: string): Promise<Ctx> => {
    const member = await joinPostgresCluster({ url: db.url, nodeId });
    const storage = createPostgresStorage({ url: db.url, events: member.events });
    // Closed by its server (closeServers), which closes the context.
    return createContext({ storage, cluster: member, clock, config: { timers: false, passwordHashCost: TEST_PASSWORD_HASH_COST } });
  };
  const a = await node('a');
  const b = await node('b');
  const { realm, owner } = must(
    await createRealm(a, { name: 'Org', url: 'http://chat.example.com', owner: { email: 'owner@example.com', fullName: 'Owner', password: 'owner-password' } }),
  );
  const add = async (email: string, fullName: string) => must(await createUserAsOperator(a, realm, { email, fullName }));
  const mel = await add('mel@example.com', 'Mel');
  const otto = await add('otto@example.com', 'Otto');
  const world = (ctx: Ctx) => ({ ctx, realm, owner, as: (user: User | null) => ({ realm, user }), addUser: () => Promise.reject(new Error('unused')) });
  const servers = { a: await startServer(world(a)), b: await startServer(world(b)) };
  return { a, b, servers, realm, owner, mel, otto, clock };
}

type Env = Awaited<ReturnType<typeof setUp>>;

/** Each node stores its reports and takes in the others' (the flush timer's work on a cluster). */
async function sync(env: Env): Promise<void> {
  await flushPresence(env.a);
  await flushPresence(env.b);
  await flushPresence(env.a);
}

const form = (values: Record<string, string>) => new URLSearchParams(values);

/** POST /users/me/presence as `user` on `server`. */
function report(server: TestServer, user: User, status: 'active' | 'idle', extra: Record<string, string> = {}): Promise<ApiResponse> {
  return call(server, 'POST', '/users/me/presence', { auth: user, body: form({ status, ...extra }) });
}

/** The modern presence answer `user` fetches through `server` after `lastUpdateId`. */
async function modern(server: TestServer, user: User, lastUpdateId: number) {
  const body = expectSuccess(await report(server, user, 'active', { ping_only: 'false', last_update_id: String(lastUpdateId) }));
  return { presences: body.presences, presence_last_update_id: body.presence_last_update_id };
}

describe.skipIf(!DATABASE_URL)('presence on two cluster nodes', { timeout: 60_000 }, () => {
  it('shows a report made to node A through node B’s GET /realm/presence, GET /users/{id}/presence and register', async () => {
    const env = await setUp();
    const { servers, mel, owner } = env;
    expectSuccess(await report(servers.a, mel, 'active'));
    await sync(env);
    const realmPresence = expectSuccess(await call(servers.b, 'GET', '/realm/presence', { auth: owner }));
    expect(realmPresence.presences['mel@example.com']).toEqual({
      aggregated: { client: 'website', status: 'active', timestamp: S0 },
      website: { client: 'website', status: 'active', timestamp: S0, pushable: false },
    });
    const one = expectSuccess(await call(servers.b, 'GET', `/users/${mel.id}/presence`, { auth: owner }));
    expect(one.presence).toEqual({ aggregated: { status: 'active', timestamp: S0 }, website: { status: 'active', timestamp: S0 } });
    const slim = expectSuccess(await call(servers.b, 'GET', `/users/${mel.id}/presence`, { auth: owner, query: { slim_presence: 'true' } }));
    expect(slim.presence).toEqual({ active_timestamp: S0, idle_timestamp: S0 });
    const registered = expectSuccess(
      await call(servers.b, 'POST', '/register', { auth: owner, body: form({ fetch_event_types: '["presence"]', slim_presence: 'true' }) }),
    );
    expect(registered.presences[String(mel.id)]).toEqual({ active_timestamp: S0, idle_timestamp: S0 });
    expect(registered.presence_last_update_id).toBeGreaterThan(0);
  });

  it('answers nothing on B for a report A has not stored yet, and the report once it has', async () => {
    const env = await setUp();
    const { servers, mel, owner } = env;
    expectSuccess(await report(servers.a, mel, 'active'));
    const before = await call(servers.b, 'GET', `/users/${mel.id}/presence`, { auth: owner });
    expect(before.status).toBe(400);
    expect(before.body.msg).toBe(`No presence data for ${mel.id}`);
    await flushPresence(env.a);
    await flushPresence(env.b);
    expectSuccess(await call(servers.b, 'GET', `/users/${mel.id}/presence`, { auth: owner }));
  });

  it('gives both nodes the same entries and last_update_id, each change numbered once across nodes', async () => {
    const env = await setUp();
    const { servers, mel, otto, owner, clock } = env;
    expectSuccess(await report(servers.a, mel, 'active'));
    expectSuccess(await report(servers.b, otto, 'idle'));
    await sync(env);
    const onA = await modern(servers.a, owner, -1);
    const onB = await modern(servers.b, owner, -1);
    // The owner's own report of this fetch is pending on each node: it is not in either answer yet.
    expect(onA).toEqual(onB);
    expect(onA.presences).toEqual({
      [String(mel.id)]: { active_timestamp: S0, idle_timestamp: S0 },
      [String(otto.id)]: { active_timestamp: Math.floor(Date.parse(otto.dateJoined) / 1000), idle_timestamp: S0 },
    });
    const first = onA.presence_last_update_id;
    await sync(env);
    clock.advance(60_000);
    // Mel reports to both nodes: the later connected time wins, whichever node stores last.
    expectSuccess(await report(servers.b, mel, 'idle'));
    clock.advance(5_000);
    expectSuccess(await report(servers.a, mel, 'idle'));
    await sync(env);
    const laterA = await modern(servers.a, owner, first);
    const laterB = await modern(servers.b, owner, first);
    expect(laterA).toEqual(laterB);
    expect(laterA.presences[String(mel.id)]).toEqual({ active_timestamp: S0, idle_timestamp: S0 + 65 });
    expect(laterA.presences[String(otto.id)]).toBeUndefined();
    expect(laterA.presence_last_update_id).toBeGreaterThan(first);
    // Asking again after the newest number gives nothing new, on either node.
    await sync(env);
    const since = laterA.presence_last_update_id;
    const restA = await modern(servers.a, mel, since);
    const restB = await modern(servers.b, mel, since);
    expect(restA).toEqual(restB);
    expect(Object.keys(restA.presences)).not.toContain(String(mel.id));
  });

  it('follows idle and active reports made to either node', async () => {
    const env = await setUp();
    const { servers, mel, owner, clock } = env;
    const status = async (server: TestServer) =>
      expectSuccess(await call(server, 'GET', '/realm/presence', { auth: owner })).presences['mel@example.com'].aggregated;
    expectSuccess(await report(servers.a, mel, 'active'));
    await sync(env);
    expect(await status(servers.b)).toEqual({ client: 'website', status: 'active', timestamp: S0 });
    clock.advance(120_000);
    expectSuccess(await report(servers.b, mel, 'idle'));
    await sync(env);
    expect(await status(servers.a)).toEqual({ client: 'website', status: 'idle', timestamp: S0 + 120 });
    clock.advance(120_000);
    expectSuccess(await report(servers.a, mel, 'active'));
    await sync(env);
    expect(await status(servers.b)).toEqual({ client: 'website', status: 'active', timestamp: S0 + 240 });
    expect(await status(servers.a)).toEqual(await status(servers.b));
  });

  it('shows a user offline on A once they turned presence off on B, though A stored an active report', async () => {
    const env = await setUp();
    const { servers, mel, owner, clock } = env;
    // An hour after joining: a user who turns presence off then looks gone since a while.
    clock.advance(3_600_000);
    expectSuccess(await report(servers.a, mel, 'active'));
    await sync(env);
    const before = expectSuccess(await call(servers.a, 'GET', `/users/${mel.id}/presence`, { auth: owner }));
    expect(before.presence.aggregated.status).toBe('active');
    expectSuccess(await call(servers.b, 'PATCH', '/settings', { auth: mel, body: form({ presence_enabled: 'false' }) }));
    await sync(env);
    const one = expectSuccess(await call(servers.a, 'GET', `/users/${mel.id}/presence`, { auth: owner }));
    expect(one.presence.aggregated.status).toBe('offline');
  });

  it('leaves a deactivated user out on both nodes', async () => {
    const env = await setUp();
    const { servers, mel, otto, owner } = env;
    expectSuccess(await report(servers.a, mel, 'active'));
    expectSuccess(await report(servers.a, otto, 'active'));
    await sync(env);
    expectSuccess(await call(servers.b, 'DELETE', `/users/${mel.id}`, { auth: owner }));
    for (const server of [servers.a, servers.b]) {
      const presences = expectSuccess(await call(server, 'GET', '/realm/presence', { auth: owner })).presences;
      expect(Object.keys(presences)).toEqual(['otto@example.com']);
      const registered = expectSuccess(
        await call(server, 'POST', '/register', { auth: owner, body: form({ fetch_event_types: '["presence"]', slim_presence: 'true' }) }),
      );
      expect(Object.keys(registered.presences)).toEqual([String(otto.id)]);
    }
    // The deactivated user's credentials no longer report anything.
    expect((await report(servers.b, mel, 'active')).status).toBe(401);
  });

  it('keeps nodes in step with the flush timer alone', async () => {
    const env = await setUp();
    const { servers, mel, owner } = env;
    const jobs = [startPresenceFlush(env.a), startPresenceFlush(env.b)];
    cleanups.push(async () => {
      for (const job of jobs) job.stop();
    });
    expectSuccess(await report(servers.a, mel, 'active'));
    // Within about a second; generous here, for a loaded machine.
    const deadline = Date.now() + 20_000;
    let answer: ApiResponse;
    do {
      await new Promise((resolve) => setTimeout(resolve, 100));
      answer = await call(servers.b, 'GET', `/users/${mel.id}/presence`, { auth: owner });
    } while (answer.status !== 200 && Date.now() < deadline);
    expect(expectSuccess(answer).presence.aggregated.status).toBe('active');
  });
});

