/**
 * The CPU cost of one POST /messages through the HTTP adapter, in process: the request of
 * bench/sends.ts (the owner posts "hello" as a urlencoded form to a channel of
 * BENCH_SUBSCRIBERS, default 51, members) sent BENCH_SENDS (default 1500) times with
 * BENCH_IN_FLIGHT (default 50) in flight to `createApp(ctx).fetch`, so authentication, routing,
 * form decoding and the answer are counted with the send itself. Beside profile-send.ts (core
 * alone), the difference is what the transport side costs.
 *
 *   node --import tsx bench/profile-http-send.ts
 *   BENCH_CPU_PROF=/tmp/http-send.cpuprofile node --import tsx bench/profile-http-send.ts
 *
 * As in profile-http.ts, `fetch` builds a web Request, which a served request does not: the
 * figure is an upper bound of the served cost. BENCH_SYNCHRONOUS=normal leaves out the fsync.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { closeContext } from '@teamchat/core';
import { createSqliteContext } from '@teamchat/core/sqlite';
import { createApp } from '@teamchat/http-adapter';
import { probeWorld } from './probe-world.js';

const subscribers = Number(process.env.BENCH_SUBSCRIBERS ?? 51);
const sends = Number(process.env.BENCH_SENDS ?? 1500);
const inFlight = Number(process.env.BENCH_IN_FLIGHT ?? 50);
const synchronous = (process.env.BENCH_SYNCHRONOUS ?? 'full') as 'full' | 'normal';
const tmp = mkdtempSync(join(tmpdir(), 'teamchat-profile-http-send-'));
try {
  const ctx = createSqliteContext({ databaseFile: join(tmp, 'send.db'), config: { timers: false }, sqlite: { synchronous, detectNestedCalls: false } });
  const { owner, streamId } = await probeWorld(ctx, subscribers - 1, 'fifty');

  const app = createApp(ctx);
  const headers = {
    authorization: `Basic ${Buffer.from(`${owner.deliveryEmail}:${owner.apiKey}`).toString('base64')}`,
    'content-type': 'application/x-www-form-urlencoded',
  };
  const body = new URLSearchParams({ type: 'stream', to: String(streamId), topic: 'bench', content: 'hello' }).toString();
  const send = async () => {
    const answer = await app.fetch(new Request('http://127.0.0.1/api/v1/messages', { method: 'POST', headers, body }));
    const text = await answer.text();
    if (answer.status !== 200) throw new Error(text);
  };
  const run = async () => {
    let next = 0;
    await Promise.all(Array.from({ length: inFlight }, async () => {
      while (next++ < sends) await send();
    }));
  };
  await run();

  const profiler = process.env.BENCH_CPU_PROF ? new Session() : undefined;
  if (profiler) {
    profiler.connect();
    await profiler.post('Profiler.enable');
    await profiler.post('Profiler.start');
  }
  const cpu = process.cpuUsage();
  await run();
  const used = process.cpuUsage(cpu);
  if (profiler) {
    const { profile } = await profiler.post('Profiler.stop');
    writeFileSync(process.env.BENCH_CPU_PROF!, JSON.stringify(profile));
    profiler.disconnect();
  }
  console.log(`${sends} sends, ${inFlight} in flight: ${((used.user + used.system) / sends).toFixed(0)} µs CPU per send (user ${(used.user / sends).toFixed(0)}, system ${(used.system / sends).toFixed(0)})`);
  await closeContext(ctx);
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
