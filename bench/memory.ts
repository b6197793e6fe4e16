/**
 * The memory figures, measured inside the server (bench/memory-server.ts: the CLI's data
 * directory and http-adapter `serve()`, with --expose-gc): heapUsed + external after full
 * collections, before and after registering N idle queues (one per member), then after N
 * long polls wait on them; each delta divided by N. Baseline of the poll figure, in the same
 * run: a bare node:http server holding N requests (bench/baselines/bare-hold.ts), the same
 * measure, with RSS beside both.
 */
import type { ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { poll, registerQueues } from './event-queues.js';
import { type Figure, inTurns, listRuns, median, progress } from './harness.js';
import { agentFor, send } from './loopback-client.js';
import type { MemorySample } from './memory-probe.js';
import { startScript, stop } from './processes.js';
import { copyWorld, MEMBERS, type World } from './seed-world.js';

const KB = 1024;
/** Time for N polls to reach the server and wait there before memory is read. */
const SETTLE_MS = 2000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function probe(child: ChildProcess): Promise<MemorySample> {
  return new Promise((resolve) => {
    child.once('message', (m) => resolve(m as MemorySample));
    child.send('memory');
  });
}

export async function memoryFigures(world: World, tmp: string): Promise<Figure[]> {
  let copies = 0;
  const perQueue: number[] = [];
  const rssPerPoll = { product: [] as number[], baseline: [] as number[] };

  const product = async (warmup: boolean) => {
    const server = await startScript('./memory-server.ts', [copyWorld(world, join(tmp, `memory-${copies++}`))], { ipc: true, gc: true });
    const agent = agentFor(MEMBERS + 1);
    try {
      // One queue and one poll of the owner first, so that code compiled on first use is not counted.
      const [ownerQueue] = await registerQueues(server.url, [world.owner], 'everything', 1);
      void poll(server.url, agent, ownerQueue!).catch(() => undefined);
      await sleep(200);
      const before = await probe(server.child);
      const queues = await registerQueues(server.url, world.members, 'everything');
      const idle = await probe(server.child);
      for (const queue of queues) void poll(server.url, agent, queue).catch(() => undefined);
      await sleep(SETTLE_MS);
      const waiting = await probe(server.child);
      if (!warmup) {
        perQueue.push((idle.heapAndExternal - before.heapAndExternal) / MEMBERS / KB);
        rssPerPoll.product.push((waiting.rss - idle.rss) / MEMBERS / KB);
      }
      return (waiting.heapAndExternal - idle.heapAndExternal) / MEMBERS / KB;
    } finally {
      agent.destroy();
      await stop(server.child);
    }
  };

  const baseline = async (warmup: boolean) => {
    const server = await startScript('./baselines/bare-hold.ts', [], { ipc: true, gc: true });
    const agent = agentFor(MEMBERS + 1);
    try {
      void send(server.url, agent, { method: 'GET', path: '/events' }).catch(() => undefined);
      await sleep(200);
      const before = await probe(server.child);
      for (let i = 0; i < MEMBERS; i++) void send(server.url, agent, { method: 'GET', path: '/events' }).catch(() => undefined);
      await sleep(SETTLE_MS);
      const holding = await probe(server.child);
      if (holding.holding !== MEMBERS + 1) throw new Error(`bare server holds ${holding.holding} requests, not ${MEMBERS + 1}`);
      if (!warmup) rssPerPoll.baseline.push((holding.rss - before.rss) / MEMBERS / KB);
      return (holding.heapAndExternal - before.heapAndExternal) / MEMBERS / KB;
    } finally {
      agent.destroy();
      await stop(server.child);
    }
  };

  progress(`memory: ${MEMBERS} queues and polls, bare node:http and teamchat in turns`);
  const polls = await inTurns(baseline, product);
  return [
    {
      name: 'memory per idle registered queue',
      unit: 'KB',
      value: median(perQueue),
      target: { of: 'value', atMost: 2 },
      notes: [`heapUsed + external after gc, delta over ${MEMBERS} queues (one per user, every event type, as a full client registers) / ${MEMBERS}; runs: ${listRuns(perQueue, 'KB')}`],
    },
    {
      name: 'memory per waiting long-poll',
      unit: 'KB',
      value: median(polls.product),
      baseline: median(polls.baseline),
      target: { of: 'value', atMost: 16 },
      notes: [
        `heapUsed + external after gc, delta over ${MEMBERS} waiting polls (each on its own connection) / ${MEMBERS}; teamchat runs: ${listRuns(polls.product, 'KB')}; bare runs: ${listRuns(polls.baseline, 'KB')}`,
        `RSS delta per poll (noisier, includes the allocator's slack): teamchat ${listRuns(rssPerPoll.product, 'KB')}; bare ${listRuns(rssPerPoll.baseline, 'KB')}`,
      ],
    },
  ];
}
