/**
 * The cluster group (issue 13, item 8): the same three figures on one SQLite process and on 1, 2
 * and 3 `teamchat serve` processes sharing one PostgreSQL database.
 *
 * - Sends: POST /messages to the channel "fifty" (the sender and 50 subscribers), autocannon
 *   with 50 connections in all, split evenly over the processes (each process its share).
 * - Fan-out: 1,000 queues registered round-robin over the processes, each long-polled at the
 *   process that owns it (what the load balancer's queue_id rule does); one message sent through
 *   the first process; send start until the last poll has its answer.
 * - History: GET /messages, a 50-message page (channel + topic narrow over 100 channels × 10
 *   topics), autocannon with 8 connections in all, split over the processes, over a history of
 *   BENCH_CLUSTER_MESSAGES (default 20,000) messages: smaller than the history group's million,
 *   because seeding PostgreSQL through the storage contract runs one statement at a time.
 *
 * The configurations run one after the other (SQLite first), each on freshly started servers;
 * the SQLite process is the baseline of every ratio. Sample sizes are smaller than the SQLite
 * groups': RUNS runs of SECONDS per throughput figure, FANOUT_ROUNDS rounds per fan-out figure.
 */
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { closeContext } from '@teamchat/core';
import { postgresStorage } from '../packages/cli/src/database.js';
import { scratchDatabase } from './cluster-database.js';
import { type Nodes, postgresNodes, sqliteNode } from './cluster-nodes.js';
import { poll, type Queue, registerQueues } from './event-queues.js';
import { round } from './fanout.js';
import { closedLoop, type Figure, type LoadResult, listRuns, median, productRuns, progress, SECONDS, WARMUP_SECONDS } from './harness.js';
import { agentFor, send } from './loopback-client.js';
import { type MessageSeedSizes, seedMessages } from './seed-messages.js';
import { basicAuth, type Credentials, FIFTY, MEMBERS, seedWorld, type World } from './seed-world.js';

const SEND_CONNECTIONS = 50;
const READ_CONNECTIONS = 8;
const FANOUT_ROUNDS = 5;
/** BENCH_CLUSTER_PROCESSES=1 runs one PostgreSQL configuration only (a smoke run). */
const PROCESS_COUNTS = (process.env.BENCH_CLUSTER_PROCESSES ?? '1,2,3').split(',').map(Number);
const HISTORY: MessageSeedSizes = { messages: Number(process.env.BENCH_CLUSTER_MESSAGES ?? 20_000), channels: 100, users: 1000, subscribersPerChannel: 10, topicsPerChannel: 10 };

interface History {
  owner: Credentials;
  streamIds: number[];
}

/** What one configuration measured. */
interface Measured {
  label: string;
  sendRuns: number[];
  sendLatencies: string[];
  fanoutRounds: number[];
  senderMs: number[];
  readP50s: number[];
  readP99s: number[];
  readRates: number[];
  /** The 1-minute load average at each measurement's start and at the end. */
  load: number[];
}

/** `total` connections split as evenly as possible over `count` processes. */
const shares = (total: number, count: number) => Array.from({ length: count }, (_, i) => Math.floor(total / count) + (i < total % count ? 1 : 0));

/** One closed-loop run on every process at once, each with its share of the connections; the per-process results. */
const everywhere = (urls: readonly string[], connections: number, run: (url: string, connections: number) => Promise<LoadResult>) =>
  Promise.all(shares(connections, urls.length).map((share, i) => run(urls[i]!, share)));

async function measureSends(nodes: Nodes, world: World, into: Measured): Promise<void> {
  const body = new URLSearchParams({ type: 'stream', to: String(world.fiftyStreamId), topic: 'bench', content: 'hello' }).toString();
  const headers = { authorization: basicAuth(world.owner), 'content-type': 'application/x-www-form-urlencoded' };
  progress(`cluster, ${nodes.label}: POST /messages`);
  into.sendRuns = await productRuns(async (warmup) => {
    const seconds = warmup ? WARMUP_SECONDS : SECONDS;
    const results = await everywhere(nodes.urls, SEND_CONNECTIONS, (url, connections) =>
      closedLoop({ url: `${url}/api/v1/messages`, connections, seconds, method: 'POST', headers, body }),
    );
    if (!warmup) into.sendLatencies.push(results.map((r) => `${r.p50Ms}/${r.p99Ms}`).join(' '));
    await drain(nodes, world, body);
    return results.reduce((sum, r) => sum + r.perSecond, 0);
  });
}

/**
 * Waits until every process has written what autocannon left in flight when it stopped (up to
 * its share of the connections, a second's work on PostgreSQL): one more send per process,
 * answered after that process's queued writes, so that the next run starts on idle servers.
 */
async function drain(nodes: Nodes, world: World, body: string): Promise<void> {
  const agent = agentFor(nodes.urls.length);
  const form = Object.fromEntries(new URLSearchParams(body));
  try {
    await Promise.all(nodes.urls.map((url) => send(url, agent, { method: 'POST', path: '/api/v1/messages', credentials: world.owner, form })));
  } finally {
    agent.destroy();
  }
}

async function measureFanout(nodes: Nodes, world: World, into: Measured): Promise<void> {
  progress(`cluster, ${nodes.label}: registering ${MEMBERS} queues round-robin`);
  const owned = await Promise.all(nodes.urls.map((url, n) => registerQueues(url, world.members.filter((_, i) => i % nodes.urls.length === n), 'messages')));
  const queues: { url: string; queue: Queue }[] = owned.flatMap((list, n) => list.map((queue) => ({ url: nodes.urls[n]!, queue })));
  const pollAgent = agentFor(MEMBERS + 1);
  const senderAgent = agentFor(nodes.urls.length);
  let message = 0;
  const oneRound = () =>
    round({
      startPolls: (written) => queues.map(({ url, queue }) => poll(url, pollAgent, queue, written)),
      // Every process has answered a request sent after the polls: it has read what came before.
      ready: async () => void (await Promise.all(nodes.urls.map((url) => send(url, senderAgent, { method: 'GET', path: '/api/v1/server_settings' })))),
      trigger: () =>
        send(nodes.urls[0]!, senderAgent, {
          method: 'POST',
          path: '/api/v1/messages',
          credentials: world.owner,
          form: { type: 'stream', to: String(world.everyoneStreamId), topic: 'fan-out', content: `message ${message++}` },
        }),
    });
  progress(`cluster, ${nodes.label}: fan-out, ${FANOUT_ROUNDS} rounds after a warm-up`);
  try {
    await oneRound();
    for (let i = 0; i < FANOUT_ROUNDS; i++) {
      const result = await oneRound();
      into.fanoutRounds.push(result.lastPollMs);
      into.senderMs.push(result.senderMs);
    }
  } finally {
    pollAgent.destroy();
    senderAgent.destroy();
  }
}

async function measureReads(nodes: Nodes, history: History, into: Measured): Promise<void> {
  let i = 0;
  const path = () => {
    const narrow = [
      { operator: 'channel', operand: history.streamIds[i % history.streamIds.length] },
      { operator: 'topic', operand: `topic ${Math.floor(i / history.streamIds.length) % HISTORY.topicsPerChannel}` },
    ];
    i++;
    return `/api/v1/messages?anchor=newest&num_before=50&num_after=0&narrow=${encodeURIComponent(JSON.stringify(narrow))}`;
  };
  progress(`cluster, ${nodes.label}: GET /messages`);
  await productRuns(async (warmup) => {
    const seconds = warmup ? WARMUP_SECONDS : SECONDS;
    const results = await everywhere(nodes.urls, READ_CONNECTIONS, (url, connections) => closedLoop({ url, connections, seconds, headers: { authorization: basicAuth(history.owner) }, path }));
    if (!warmup) {
      // The slowest process's quantiles: autocannon reports each run's, not their merge.
      into.readP50s.push(Math.max(...results.map((r) => r.p50Ms)));
      into.readP99s.push(Math.max(...results.map((r) => r.p99Ms)));
      into.readRates.push(results.reduce((sum, r) => sum + r.perSecond, 0));
    }
    return 0;
  });
}

/** Runs the three measurements on servers started by `start` (the world's, then the history's). */
async function measure(label: string, start: (dataset: 'world' | 'history') => Promise<Nodes>, world: World, history: History): Promise<Measured> {
  const into: Measured = { label, sendRuns: [], sendLatencies: [], fanoutRounds: [], senderMs: [], readP50s: [], readP99s: [], readRates: [], load: [] };
  const sampleLoad = () => into.load.push(loadavg()[0]!);
  const worldNodes = await start('world');
  try {
    sampleLoad();
    await measureSends(worldNodes, world, into);
    sampleLoad();
    await measureFanout(worldNodes, world, into);
  } finally {
    await worldNodes.stop();
  }
  const historyNodes = await start('history');
  try {
    sampleLoad();
    await measureReads(historyNodes, history, into);
    sampleLoad();
  } finally {
    await historyNodes.stop();
  }
  progress(`cluster, ${label}: done; load average (1 min) ${into.load.map((l) => l.toFixed(1)).join(' → ')}`);
  return into;
}

async function seedHistory(dir: string, storage?: Parameters<typeof seedMessages>[3]): Promise<History> {
  const seeded = await seedMessages(HISTORY, dir, (line) => progress(line.trim()), storage);
  await closeContext(seeded.ctx);
  return { owner: { email: seeded.owner.deliveryEmail, apiKey: seeded.owner.apiKey }, streamIds: seeded.streamIds };
}

export async function clusterFigures(tmp: string): Promise<Figure[]> {
  const root = join(tmp, 'cluster');
  const seedStarted = performance.now();
  progress(`cluster: seeding SQLite (the world, and ${HISTORY.messages.toLocaleString('en-US')} messages)`);
  const sqliteWorld = await seedWorld(root, { name: 'sqlite-world' });
  const sqliteHistory = await seedHistory(join(root, 'sqlite-history'));
  const worldDb = await scratchDatabase('world');
  const historyDb = await scratchDatabase('history');
  try {
    progress('cluster: seeding PostgreSQL (the same world and history)');
    const pgStarted = performance.now();
    const pgWorld = await seedWorld(root, { name: 'pg-world', storage: postgresStorage(worldDb.url) });
    const pgHistory = await seedHistory(join(root, 'pg-history'), postgresStorage(historyDb.url));
    const pgSeedSeconds = (performance.now() - pgStarted) / 1000;
    progress(`cluster: seeded in ${((performance.now() - seedStarted) / 1000).toFixed(0)} s (PostgreSQL ${pgSeedSeconds.toFixed(0)} s)`);

    const baseline = await measure('SQLite, 1 process', (dataset) => sqliteNode(dataset === 'world' ? sqliteWorld.dir : join(root, 'sqlite-history')), sqliteWorld, sqliteHistory);
    const clusters: Measured[] = [];
    for (const count of PROCESS_COUNTS) {
      const start = (dataset: 'world' | 'history') =>
        dataset === 'world' ? postgresNodes(worldDb.url, count, join(root, `pg-${count}-world`)) : postgresNodes(historyDb.url, count, join(root, `pg-${count}-history`));
      clusters.push(await measure(`PostgreSQL, ${count} process${count > 1 ? 'es' : ''}`, start, pgWorld, pgHistory));
    }
    return figuresOf(baseline, clusters, pgSeedSeconds);
  } finally {
    await worldDb.drop();
    await historyDb.drop();
  }
}

function figuresOf(baseline: Measured, clusters: readonly Measured[], pgSeedSeconds: number): Figure[] {
  const all = [baseline, ...clusters];
  const figure = (name: string, unit: string, of: (m: Measured) => number, notes: (m: Measured) => string): Figure[] =>
    all.map((m) => ({
      name: `cluster: ${name}, ${m.label}`,
      unit,
      value: of(m),
      baseline: m === baseline ? undefined : of(baseline),
      notes: [notes(m)],
    }));
  return [
    ...figure(
      `POST /messages, ${FIFTY} subscribers (concurrency ${SEND_CONNECTIONS} in all)`,
      'msg/s',
      (m) => median(m.sendRuns),
      (m) => `runs: ${listRuns(m.sendRuns, 'msg/s')}; p50/p99 ms per process and run: ${m.sendLatencies.join('; ')}; load average (1 min) over the configuration: ${m.load.map((l) => l.toFixed(1)).join(' → ')}`,
    ),
    ...figure(
      `one message to ${MEMBERS.toLocaleString('en-US')} long-polls, send → last poll`,
      'ms',
      (m) => median(m.fanoutRounds),
      (m) => `rounds: ${listRuns(m.fanoutRounds, 'ms')}; the sender's own answer after a median ${median(m.senderMs).toFixed(1)} ms`,
    ),
    ...figure(
      `GET /messages, 50-message page, ${HISTORY.messages.toLocaleString('en-US')} stored, p50 (concurrency ${READ_CONNECTIONS} in all)`,
      'ms',
      (m) => median(m.readP50s),
      (m) => `runs (slowest process): ${listRuns(m.readP50s, 'ms')} at ${listRuns(m.readRates, 'req/s')} in all`,
    ),
    ...figure(
      `GET /messages, 50-message page, ${HISTORY.messages.toLocaleString('en-US')} stored, p99 (concurrency ${READ_CONNECTIONS} in all)`,
      'ms',
      (m) => median(m.readP99s),
      (m) => `runs (slowest process): ${listRuns(m.readP99s, 'ms')}${m === baseline ? '' : `; the world and this history seeded into PostgreSQL in ${pgSeedSeconds.toFixed(0)} s`}`,
    ),
  ];
}
