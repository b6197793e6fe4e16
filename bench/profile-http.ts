/**
 * The CPU cost of one GET /messages request through the HTTP adapter, in process: the request
 * of profile-history.ts (a 50-message page of a channel + topic narrow) sent BENCH_READS
 * (default 1500) times, one at a time, to `createApp(ctx).fetch` with the owner's Basic
 * credentials, so authentication, routing, parameter decoding and the answer's serialization
 * are counted with the page itself. Run beside profile-history.ts on the same directory, the
 * difference between the two is what the transport side costs.
 *
 *   node --import tsx bench/profile-http.ts DIR
 *   BENCH_CPU_PROF=/tmp/http.cpuprofile node --import tsx bench/profile-http.ts DIR
 *
 * `fetch` builds a web Request and reads the answer back as text, which a served request does
 * not (srvx writes a FastResponse's string in one `end()`): the figure is an upper bound of the
 * served cost, and its profile's undici and web-stream frames are this probe's own.
 */
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { closeContext } from '@teamchat/core';
import { createApp } from '@teamchat/http-adapter';
import { openDataDir } from '../packages/cli/src/data-dir.js';

const source = process.argv[2];
if (!source) throw new Error('usage: profile-http.ts DATA_DIR');
const reads = Number(process.env.BENCH_READS ?? 1500);
// Requests made before counting. The narrows repeat every 1,000 requests: BENCH_WARMUP=1000 measures pages
// seen before (as a server answering the same channels all day), the default 300 mostly first reads.
const warmup = Number(process.env.BENCH_WARMUP ?? 300);
const tmp = mkdtempSync(join(tmpdir(), 'teamchat-profile-http-'));
try {
  cpSync(source, join(tmp, 'data'), { recursive: true });
  // As `teamchat serve` opens it (nested-call detection off: it hooks every promise).
  const ctx = openDataDir(join(tmp, 'data'), { config: { timers: false }, sqlite: { detectNestedCalls: false } });
  const { owner, streamIds } = await ctx.storage.read(async (tx) => {
    const [realm] = await tx.realms.all();
    if (!realm) throw new Error(`${source} holds no realm`);
    const owner = (await tx.users.list(realm.id)).find((u) => u.deliveryEmail === 'owner@example.com');
    if (!owner) throw new Error(`${source} has no owner@example.com`);
    const streamIds = (await tx.streams.list(realm.id)).map((s) => s.id).sort((a, b) => a - b);
    return { owner, streamIds };
  });
  const app = createApp(ctx);
  const authorization = `Basic ${Buffer.from(`${owner.deliveryEmail}:${owner.apiKey}`).toString('base64')}`;
  const request = async (i: number) => {
    const narrow = [
      { operator: 'channel', operand: streamIds[i % streamIds.length]! },
      { operator: 'topic', operand: `topic ${Math.floor(i / streamIds.length) % 10}` },
    ];
    const query = `anchor=newest&num_before=50&num_after=0&narrow=${encodeURIComponent(JSON.stringify(narrow))}`;
    const answer = await app.fetch(new Request(`http://127.0.0.1/api/v1/messages?${query}`, { headers: { authorization } }));
    const text = await answer.text();
    if (answer.status !== 200) throw new Error(text);
    return text.length;
  };
  for (let i = 0; i < warmup; i++) await request(i);

  const profiler = process.env.BENCH_CPU_PROF ? new Session() : undefined;
  if (profiler) {
    profiler.connect();
    await profiler.post('Profiler.enable');
    await profiler.post('Profiler.start');
  }
  const cpu = process.cpuUsage();
  let bytes = 0;
  for (let i = 0; i < reads; i++) bytes += await request(i);
  const used = process.cpuUsage(cpu);
  if (profiler) {
    const { profile } = await profiler.post('Profiler.stop');
    writeFileSync(process.env.BENCH_CPU_PROF!, JSON.stringify(profile));
    profiler.disconnect();
  }
  console.log(`${reads} requests: ${((used.user + used.system) / reads).toFixed(0)} µs CPU per request, ${(bytes / reads / 1024).toFixed(1)} KiB per answer`);
  await closeContext(ctx);
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
