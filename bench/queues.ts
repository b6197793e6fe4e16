/**
 * The cost of many event queues for one user (issue #10: 10,300 registrations, then 1,000 sends,
 * took the server to 2.86 GB and send p99 to 1.8 s). In process, on the in-memory database:
 * 1,000 direct messages to a user who registered one queue (the baseline), 10,300 queues (capped
 * at maxQueuesPerUser), and, for comparison, 1,030 queues with the cap lifted. Every figure is a
 * ratio to the baseline of the same run.
 *
 *   node --import tsx bench/queues.ts
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { closeContext, createContext, createRealm, createUserAsOperator, doSendMessage, getEvents, type ServerConfig } from '@teamchat/core';

const SENDS = 1000;

function heapUsed(): number {
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
  return process.memoryUsage().heapUsed;
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;

async function scenario(registrations: number, config: Partial<ServerConfig> = {}) {
  const ctx = createContext({ config: { timers: false, ...config } });
  const { realm, owner } = (
    await createRealm(ctx, { name: 'Bench', url: 'http://bench.example', owner: { email: 'o@bench.example', fullName: 'Owner', password: 'owner-password' } })
  )._unsafeUnwrap();
  const member = (await createUserAsOperator(ctx, realm, { email: 'm@bench.example', fullName: 'Member' }))._unsafeUnwrap();
  for (let i = 0; i < registrations; i++) (await getEvents(ctx, { realm, user: member }, { dont_block: true }))._unsafeUnwrap();
  const before = heapUsed();
  const latencies: number[] = [];
  for (let i = 0; i < SENDS; i++) {
    const start = performance.now();
    const sent = await doSendMessage(ctx, { realm, user: owner }, { type: 'direct', to: JSON.stringify([member.id]), content: `message ${i} `.padEnd(500, 'x') });
    latencies.push(performance.now() - start);
    if (sent.isErr()) throw new Error(sent.error.msg);
  }
  await ctx.queues.delivered();
  const heap = heapUsed() - before;
  const queues = ctx.queues.size;
  await closeContext(ctx);
  latencies.sort((a, b) => a - b);
  return { queues, heap, p50: percentile(latencies, 0.5), p99: percentile(latencies, 0.99) };
}

const baseline = await scenario(1);
const rows = [
  ['1 registration (baseline)', baseline],
  ['10,300 registrations, capped', await scenario(10_300)],
  ['1,030 registrations, cap lifted', await scenario(1030, { maxQueuesPerUser: 1_000_000 })],
] as const;
console.log('| scenario | queues kept | heap growth × baseline | send p50 × baseline | send p99 × baseline |');
console.log('|---|---|---|---|---|');
for (const [name, r] of rows) {
  console.log(`| ${name} | ${r.queues} | ${(r.heap / baseline.heap).toFixed(1)} | ${(r.p50 / baseline.p50).toFixed(1)} | ${(r.p99 / baseline.p99).toFixed(1)} |`);
}
