/**
 * Profiles the fan-out figure's server: `node --cpu-prof` serving the bench world while 1,000
 * long-polls are answered by one send, BENCH_ROUNDS (10) times. Prints each round's time as the
 * client saw it, then the server's self time per function within the answer windows only (the
 * busy stretches that ran the send; the first, which also holds the registrations, is left
 * out), averaged per window. The profile file stays in BENCH_PROF_DIR (default a temp dir).
 *
 *   node --import tsx bench/profile-fanout.ts
 *
 * On a loaded machine the windows blur (the server is rarely idle long enough to separate
 * them): compare the functions' shares, not the totals.
 */
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { poll, registerQueues } from './event-queues.js';
import { noteWritten, settled, type Written } from './fanout.js';
import { agentFor, send } from './loopback-client.js';
import { CLI, freePort, startNode, stop } from './processes.js';
import { copyWorld, MEMBERS, seedWorld } from './seed-world.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 10);
const tmp = mkdtempSync(join(tmpdir(), 'teamchat-fanout-prof-'));
const profDir = process.env.BENCH_PROF_DIR ?? tmp;
const world = await seedWorld(join(tmp, 'seed'));
const port = await freePort();
const url = `http://127.0.0.1:${port}`;
const { child } = await startNode(
  [...(process.env.BENCH_PROF_INTERVAL ? ['--cpu-prof-interval', process.env.BENCH_PROF_INTERVAL] : []), '--cpu-prof', '--cpu-prof-dir', profDir, CLI, 'serve', '--data', copyWorld(world, join(tmp, 'run')), '--host', '127.0.0.1', '--port', String(port), '--shutdown-timeout', '1', '--no-rate-limits', '--log-level', 'warn'],
  'teamchat is listening on',
);
try {
  const queues = await registerQueues(url, world.members, 'messages');
  const agent = agentFor(MEMBERS + 1);
  const sender = agentFor(1);
  for (let round = 0; round < ROUNDS; round++) {
    const written: Written = { count: 0, lastAt: performance.now() };
    const polls = queues.map((q) => poll(url, agent, q, noteWritten(written)));
    // Every poll written a second ago (see `settled`), then the server has caught up.
    await settled(written, polls.length);
    await send(url, sender, { method: 'GET', path: '/api/v1/server_settings' });
    const started = performance.now();
    await send(url, sender, {
      method: 'POST',
      path: '/api/v1/messages',
      credentials: world.owner,
      form: { type: 'stream', to: String(world.everyoneStreamId), topic: 'fan-out', content: `message ${round}` },
    });
    await Promise.all(polls);
    console.log(`round ${round}: ${(performance.now() - started).toFixed(1)} ms`);
    // An idle gap in the profile between the answers and the next round's polls.
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  agent.destroy();
  sender.destroy();
} finally {
  await stop(child);
}
const file = readdirSync(profDir).find((name) => name.endsWith('.cpuprofile'))!;
interface Node { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] }
const profile = JSON.parse(readFileSync(join(profDir, file), 'utf8')) as { nodes: Node[]; samples: number[]; timeDeltas: number[] };
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map<number, number>();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const inStack = (id: number, name: string) => {
  for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) if (byId.get(at)!.callFrame.functionName === name) return true;
  return false;
};
// Busy stretches separated by 200 ms or more of idle; those that ran the send are the answer windows.
const segments: number[][] = [];
let current: number[] = [];
let idleFor = 0;
profile.samples.forEach((id, i) => {
  if (byId.get(id)!.callFrame.functionName === '(idle)') {
    idleFor += profile.timeDeltas[i] ?? 0;
    return;
  }
  if (idleFor >= 200_000 && current.length > 0) {
    segments.push(current);
    current = [];
  }
  idleFor = 0;
  current.push(i);
});
if (current.length > 0) segments.push(current);
// The first window also holds the registrations and the server's warm-up.
const answers = segments.filter((segment) => segment.some((i) => inStack(profile.samples[i]!, 'insertMessage'))).slice(1);
const busyMs = (segment: number[]) => segment.reduce((sum, i) => sum + (profile.timeDeltas[i] ?? 0), 0) / 1000;
console.log(`busy ms per answer window: ${answers.map((segment) => busyMs(segment).toFixed(0)).join(', ')}`);
const self = new Map<string, number>();
let total = 0;
for (const segment of answers) {
  for (const i of segment) {
    const { functionName, url: where, lineNumber } = byId.get(profile.samples[i]!)!.callFrame;
    const key = `${functionName || '(anonymous)'} ${where.split('/').slice(-2).join('/')}:${lineNumber}`;
    const delta = profile.timeDeltas[i] ?? 0;
    self.set(key, (self.get(key) ?? 0) + delta);
    total += delta;
  }
}
console.log(`profile ${join(profDir, file)}: ${answers.length} answer windows, ${(total / 1000 / answers.length).toFixed(1)} ms busy each`);
for (const [key, us] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 50)) console.log(`${(us / 1000 / answers.length).toFixed(2).padStart(8)} ms  ${key}`);
