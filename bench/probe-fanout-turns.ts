/**
 * Probe for the fan-out figure: the round of bench/fanout.ts on the bare node:http server and on
 * one or more teamchat builds, in alternating rounds (the order rotates each cycle), reporting
 * per side the median of: first and last poll answer (ms from the send's start), the sender's
 * answer, and the server's CPU (every thread, /proc/PID/task/TID/schedstat) from the send to its
 * last poll answer and to 300 ms after it (the client's closes of its extra sockets included).
 * CPU per round is what to read on a shared machine; wall times move with the load.
 *
 *   node --import tsx bench/probe-fanout-turns.ts [rounds per side, default 8] [name=path/to/cli.js ...]
 *
 * Without builds named, the worktree's build is compared with the bare server.
 */
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, mkdtempSync } from 'node:fs';
import { type Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { median } from './harness.js';
import { noteWritten, settled, type Written } from './fanout.js';
import { type Queue, registerQueues } from './event-queues.js';
import { agentFor, send } from './loopback-client.js';
import { CLI, freePort, pinLoadGenerator, startNode, startScript, stop } from './processes.js';
import { basicAuth, copyWorld, MEMBERS, seedWorld } from './seed-world.js';

const ROUNDS = Number(process.argv[2] ?? 8);
const builds = process.argv.slice(3).map((arg) => arg.split('=') as [string, string]);
if (builds.length === 0) builds.push(['teamchat', CLI]);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const cpuNs = (pid: number) => {
  let total = 0;
  for (const task of readdirSync(`/proc/${pid}/task`)) {
    try {
      total += Number(readFileSync(`/proc/${pid}/task/${task}/schedstat`, 'utf8').split(' ')[0]);
    } catch {
      // the thread ended between the listing and the read
    }
  }
  return total;
};

/** One GET whose answer resolves with its arrival time. */
function get(url: string, agent: Agent, path: string, headers: Record<string, string>, written: () => void): Promise<number> {
  const base = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request({ agent, host: base.hostname, port: base.port, method: 'GET', path, headers }, (res) => {
      res.on('data', () => undefined);
      res.on('end', () => resolve(performance.now()));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.once('finish', written);
    req.end();
  });
}

interface Side {
  name: string;
  url: string;
  pid: number;
  agent: Agent;
  queues?: Queue[];
}
interface Row {
  first: number;
  last: number;
  sender: number;
  cpuMs: number;
  cpuAfterMs: number;
}

console.log(pinLoadGenerator());
const tmp = mkdtempSync(join(tmpdir(), 'fanout-turns-'));
const world = await seedWorld(join(tmp, 'seed'));
const sides: Side[] = [];
const bare = await startScript('./baselines/bare-hold.ts', []);
sides.push({ name: 'bare', url: bare.url, pid: bare.child.pid!, agent: agentFor(MEMBERS + 1) });
const children = [bare.child];
for (const [name, cli] of builds) {
  const port = await freePort();
  const data = copyWorld(world, join(tmp, name));
  const { child } = await startNode(
    [cli, 'serve', '--data', data, '--host', '127.0.0.1', '--port', String(port), '--shutdown-timeout', '1', '--no-rate-limits', '--log-level', 'warn'],
    'teamchat is listening on',
  );
  children.push(child);
  const url = `http://127.0.0.1:${port}`;
  sides.push({ name, url, pid: child.pid!, agent: agentFor(MEMBERS + 1), queues: await registerQueues(url, world.members, 'messages') });
}
const sender = agentFor(1);
let message = 0;

async function round(side: Side): Promise<Row> {
  const written: Written = { count: 0, lastAt: performance.now() };
  const polls = side.queues
    ? side.queues.map((q) =>
        get(side.url, side.agent, `/api/v1/events?queue_id=${q.queueId}&last_event_id=${q.lastEventId}`, { authorization: basicAuth(q.credentials) }, noteWritten(written)),
      )
    : Array.from({ length: MEMBERS }, () => get(side.url, side.agent, '/events', {}, noteWritten(written)));
  await settled(written, polls.length);
  if (side.queues) await send(side.url, sender, { method: 'GET', path: '/api/v1/server_settings' });
  else
    for (;;) {
      const { held } = JSON.parse((await send(side.url, sender, { method: 'POST', path: '/held' })).body.toString('utf8')) as { held: number };
      if (held >= MEMBERS) break;
      await sleep(50);
    }
  // STRACE=1: the server's system calls from the send to 300 ms after the last answer.
  const tracer = process.env.STRACE
    ? spawn('strace', ['-c', '-f', '-o', join(tmp, `strace-${side.name}-${message}`), ...readdirSync(`/proc/${side.pid}/task`).flatMap((tid) => ['-p', tid])], { stdio: 'ignore' })
    : undefined;
  if (tracer) await sleep(500);
  const traceFile = join(tmp, `strace-${side.name}-${message}`);
  const cpu0 = cpuNs(side.pid);
  const started = performance.now();
  const sent = side.queues
    ? await send(side.url, sender, {
        method: 'POST',
        path: '/api/v1/messages',
        credentials: world.owner,
        form: { type: 'stream', to: String(world.everyoneStreamId), topic: 'fan-out', content: `message ${message++}` },
      })
    : await send(side.url, sender, { method: 'POST', path: '/release?bytes=532' });
  const senderMs = performance.now() - started;
  if (sent.status !== 200) throw new Error(`${side.name}: ${sent.status}`);
  const times = await Promise.all(polls);
  const cpu1 = cpuNs(side.pid);
  await sleep(300);
  const cpu2 = cpuNs(side.pid);
  if (tracer) {
    const exited = new Promise((resolve) => tracer.once('exit', resolve));
    tracer.kill('SIGINT');
    await exited;
    console.log(`${side.name}: system calls from the send to 300 ms after the last answer\n${readFileSync(traceFile, 'utf8')}`);
  }
  for (const q of side.queues ?? []) q.lastEventId++;
  return { first: Math.min(...times) - started, last: Math.max(...times) - started, sender: senderMs, cpuMs: (cpu1 - cpu0) / 1e6, cpuAfterMs: (cpu2 - cpu0) / 1e6 };
}

const rows = new Map<string, Row[]>(sides.map((side) => [side.name, []]));
for (const side of sides) await round(side); // warm-up
for (let i = 0; i < ROUNDS; i++) {
  for (let k = 0; k < sides.length; k++) {
    const side = sides[(i + k) % sides.length]!;
    rows.get(side.name)!.push(await round(side));
  }
}
const f = (v: number) => v.toFixed(1).padStart(6);
const medians = new Map<string, Record<keyof Row, number>>();
for (const [name, list] of rows) {
  const m = (key: keyof Row) => median(list.map((r) => r[key]));
  medians.set(name, { first: m('first'), last: m('last'), sender: m('sender'), cpuMs: m('cpuMs'), cpuAfterMs: m('cpuAfterMs') });
  const r = medians.get(name)!;
  console.log(`${name.padEnd(10)} median of ${list.length}: first ${f(r.first)} last ${f(r.last)} sender ${f(r.sender)} | server CPU send→last ${f(r.cpuMs)} ms, →+300 ms ${f(r.cpuAfterMs)} ms`);
  console.log(`           last: ${list.map((x) => x.last.toFixed(0)).join(' ')}; cpu→last: ${list.map((x) => x.cpuMs.toFixed(0)).join(' ')}`);
}
const b = medians.get('bare')!;
for (const [name, r] of medians) if (name !== 'bare') console.log(`${name}: wall ratio ${(r.last / b.last).toFixed(2)}, CPU ratio ${(r.cpuMs / b.cpuMs).toFixed(2)} (→+300: ${(r.cpuAfterMs / b.cpuAfterMs).toFixed(2)})`);
for (const side of sides) side.agent.destroy();
sender.destroy();
for (const child of children) await stop(child);
