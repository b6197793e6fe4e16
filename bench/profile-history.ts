/**
 * The CPU cost of one GET /messages page, in process (no HTTP): the history figure's request
 * (a 50-message page of a channel + topic narrow, anchor newest, moving over the channels and
 * topics) called BENCH_READS (default 2000) times one at a time on a seeded history directory.
 * Prints CPU µs per request and every SQL statement run per request with the rows it returned.
 *
 *   node --import tsx bench/profile-history.ts DIR          # DIR: a data directory the history group seeded
 *   BENCH_CPU_PROF=/tmp/history.cpuprofile node --import tsx bench/profile-history.ts DIR
 *
 * Make DIR once with `BENCH_ONLY=history npm run bench` (it keeps the seeded directory under the
 * system temp directory, bench/history-seed.ts) or with seedMessages (bench/seed-messages.ts); the
 * script works on a copy. The request's work does not grow with the history (every narrow is an
 * index range), so 100,000 messages profile the same path as a million.
 */
import { Session } from 'node:inspector/promises';
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { closeContext, getMessages } from '@teamchat/core';
import { toJson } from '@teamchat/core/internal';
import { openDataDir } from '../packages/cli/src/data-dir.js';
import { countStatements } from './statement-counts.js';

const source = process.argv[2];
if (!source) throw new Error('usage: profile-history.ts DATA_DIR');
const reads = Number(process.env.BENCH_READS ?? 2000);
// Requests made before counting. The narrows repeat every 1,000 requests: BENCH_WARMUP=1000 measures pages
// seen before (as a server answering the same channels all day), the default 300 mostly first reads.
const warmup = Number(process.env.BENCH_WARMUP ?? 300);
const counts = countStatements();
const tmp = mkdtempSync(join(tmpdir(), 'teamchat-profile-history-'));
try {
  cpSync(source, join(tmp, 'data'), { recursive: true });
  // As `teamchat serve` opens it (nested-call detection off: it hooks every promise).
  const ctx = openDataDir(join(tmp, 'data'), { config: { timers: false }, sqlite: { detectNestedCalls: false } });
  const { realm, owner, streamIds } = await ctx.storage.read(async (tx) => {
    const [realm] = await tx.realms.all();
    if (!realm) throw new Error(`${source} holds no realm`);
    const owner = (await tx.users.list(realm.id)).find((u) => u.deliveryEmail === 'owner@example.com');
    if (!owner) throw new Error(`${source} has no owner@example.com`);
    const streamIds = (await tx.streams.list(realm.id)).map((s) => s.id).sort((a, b) => a - b);
    return { realm, owner, streamIds };
  });
  const actor = { realm, user: owner };
  const page = async (i: number) => {
    const narrow = [
      { operator: 'channel', operand: streamIds[i % streamIds.length]! },
      { operator: 'topic', operand: `topic ${Math.floor(i / streamIds.length) % 10}` },
    ];
    const got = await getMessages(ctx, actor, { anchor: 'newest', num_before: 50, num_after: 0, narrow });
    if (got.isErr()) throw new Error(got.error.msg);
    // As the HTTP adapter serializes answers (respond.ts): kept texts are reused.
    return toJson(got.value).length;
  };
  for (let i = 0; i < warmup; i++) await page(i);

  const profiler = process.env.BENCH_CPU_PROF ? new Session() : undefined;
  if (profiler) {
    profiler.connect();
    await profiler.post('Profiler.enable');
    await profiler.post('Profiler.start');
  }
  counts.reset();
  const cpu = process.cpuUsage();
  const started = performance.now();
  let bytes = 0;
  for (let i = 0; i < reads; i++) bytes += await page(i);
  const used = process.cpuUsage(cpu);
  const wall = performance.now() - started;
  if (profiler) {
    const { profile } = await profiler.post('Profiler.stop');
    writeFileSync(process.env.BENCH_CPU_PROF!, JSON.stringify(profile));
    profiler.disconnect();
  }
  console.log(
    `${reads} pages: ${((used.user + used.system) / reads).toFixed(0)} µs CPU per page (user ${(used.user / reads).toFixed(0)}), ` +
      `${((wall * 1000) / reads).toFixed(0)} µs wall, ${(bytes / reads / 1024).toFixed(1)} KiB of JSON per page (serialized with toJson, as served)`,
  );
  counts.print(reads, 'page');
  await closeContext(ctx);
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
