/**
 * The cost of presence, against a real server in a child process on the fsynced file database
 * (bench/serve-presence.ts), every figure next to a baseline measured in the same run:
 *
 * 1. Throughput: POST /users/me/presence (ping_only, and with a modern incremental fetch) from
 *    200 users' clients, against GET /users/me (one authenticated read, no write).
 * 2. Interference: POST /messages latency alone, then while 16 clients make as many requests
 *    as they can of three kinds: authenticated reads (GET /users/me, the floor any request
 *    costs), presence pings, and write transactions (PATCH /users/{id}: what a transaction per
 *    ping would have cost the sends).
 *
 *   node --import tsx bench/presence.ts        # alone (BENCH_DURATION_MS per row, default 2500)
 */
import { fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { measure, printTable, type Sample } from './harness.js';
import { type HttpClient, httpClient } from './http-client.js';

interface Credentials {
  email: string;
  apiKey: string;
}

/** Runs `task` (with a running counter) from `concurrency` workers until stopped; `stop` tells how many succeeded. */
function background(concurrency: number, task: (i: number) => Promise<unknown>): { stop(): Promise<{ ops: number; errors: number; seconds: number }> } {
  let running = true;
  let next = 0;
  let ops = 0;
  let errors = 0;
  const started = performance.now();
  const workers = Array.from({ length: concurrency }, async () => {
    while (running) {
      try {
        await task(next++);
        ops++;
      } catch {
        errors++;
      }
    }
  });
  return {
    async stop() {
      running = false;
      await Promise.all(workers);
      return { ops, errors, seconds: (performance.now() - started) / 1000 };
    },
  };
}

export async function presenceBenchmarks(durationMs: number): Promise<{ samples: Sample[]; notes: string[] }> {
  const tmp = mkdtempSync(join(tmpdir(), 'teamchat-bench-presence-'));
  const samples: Sample[] = [];
  const notes: string[] = [];
  const child = fork(new URL('./serve-presence.ts', import.meta.url), [join(tmp, 'presence.db')], {
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, BENCH_MEMBERS: '200' },
  });
  try {
    const info = await new Promise<{ url: string; owner: Credentials; members: Credentials[] }>((resolve, reject) => {
      child.once('message', (m) => resolve(m as never));
      child.once('exit', (code) => reject(new Error(`bench server exited with ${code}`)));
    });
    const owner = httpClient(info.url, info.owner.email, info.owner.apiKey, 16);
    // One client per member, as each member's app would be; requests go round the members.
    const members: HttpClient[] = info.members.map((m) => httpClient(info.url, m.email, m.apiKey, 1));
    const member = (i: number) => members[i % members.length]!;
    const ping = (i: number) => member(i).call('POST', '/users/me/presence', { status: i % 3 ? 'active' : 'idle', ping_only: 'true' });

    // Every member online first (their first report is the one that may send an event), and
    // every member's connection open, as a running server would have them.
    for (let i = 0; i < members.length; i += 16) await Promise.all(members.slice(i, i + 16).map((_, j) => ping(i + j)));
    const baseline = await measure('HTTP GET /users/me (baseline)', () => owner.call('GET', '/users/me'), { durationMs, concurrency: 16 });
    const memberReads = await measure('HTTP GET /users/me, 200 users (baseline)', (i) => member(i).call('GET', '/users/me'), { durationMs, concurrency: 16 });
    const pings = await measure('HTTP POST /users/me/presence ping_only, 200 users', ping, { durationMs, concurrency: 16 });
    const fetches = await measure('HTTP POST /users/me/presence last_update_id=-1 (fetch 201 users)', (i) =>
      member(i).call('POST', '/users/me/presence', { status: 'active', last_update_id: '-1' }), { durationMs, concurrency: 16 });
    // A client's later fetches pass the last presence_last_update_id they got: only newer changes.
    let latest = -1;
    const incremental = await measure('HTTP POST /users/me/presence last_update_id=latest (incremental)', async (i) => {
      const answer = await member(i).call('POST', '/users/me/presence', { status: 'active', last_update_id: String(latest) });
      latest = Math.max(latest, answer.presence_last_update_id as number);
    }, { durationMs, concurrency: 16 });
    samples.push(baseline, memberReads, pings, fetches, incremental);
    notes.push(
      `presence ping_only: ${(pings.opsPerSec / memberReads.opsPerSec).toFixed(2)}× GET /users/me from the same 200 clients ` +
        `(${(pings.opsPerSec / baseline.opsPerSec).toFixed(2)}× the owner's 16 connections); ` +
        `with a full modern fetch: ${(fetches.opsPerSec / memberReads.opsPerSec).toFixed(2)}×, ` +
        `with an incremental one: ${(incremental.opsPerSec / memberReads.opsPerSec).toFixed(2)}×`,
    );

    let n = 0;
    const send = () => owner.call('POST', '/messages', { type: 'stream', to: 'bench', topic: 'presence', content: `message ${n++}` });
    const alone = await measure('HTTP POST /messages, alone', send, { durationMs, concurrency: 4 });
    const pinging = background(16, ping);
    const withPings = await measure('HTTP POST /messages, 16 clients pinging presence', send, { durationMs, concurrency: 4 });
    const pinged = await pinging.stop();
    const reading = background(16, (i) => member(i).call('GET', '/users/me'));
    const withReads = await measure('HTTP POST /messages, 16 clients reading (GET /users/me)', send, { durationMs, concurrency: 4 });
    const read = await reading.stop();
    const admin = httpClient(info.url, info.owner.email, info.owner.apiKey, 16);
    const writing = background(16, (i) => admin.call('PATCH', `/users/${i % 200 + 2}`, { full_name: `Name ${i}` }));
    const withWrites = await measure('HTTP POST /messages, 16 clients writing (PATCH /users/{id})', send, { durationMs, concurrency: 4 });
    const wrote = await writing.stop();
    samples.push(alone, withPings, withReads, withWrites);
    notes.push(
      `POST /messages p50 ${alone.p50Ms.toFixed(1)} ms alone, ${withReads.p50Ms.toFixed(1)} ms beside ${Math.round(read.ops / read.seconds)} reads/s ` +
        `(${(withReads.p50Ms / alone.p50Ms).toFixed(2)}×), ${withPings.p50Ms.toFixed(1)} ms beside ${Math.round(pinged.ops / pinged.seconds)} pings/s ` +
        `(${(withPings.p50Ms / alone.p50Ms).toFixed(2)}×), ${withWrites.p50Ms.toFixed(1)} ms beside ${Math.round(wrote.ops / wrote.seconds)} write transactions/s ` +
        `(${(withWrites.p50Ms / alone.p50Ms).toFixed(2)}×); background errors: ${read.errors + pinged.errors + wrote.errors}`,
    );
    for (const client of [owner, admin, ...members]) client.close();
  } finally {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.disconnect();
    await exited;
    rmSync(tmp, { recursive: true, force: true });
  }
  return { samples, notes };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const durationMs = Number(process.env.BENCH_DURATION_MS ?? 2500);
  const { samples, notes } = await presenceBenchmarks(durationMs);
  console.log(`\nteamchat presence benchmarks (node ${process.version}, ${durationMs} ms per row, loopback, file database, synchronous = FULL)\n`);
  printTable(samples);
  for (const note of notes) console.log(note);
}
