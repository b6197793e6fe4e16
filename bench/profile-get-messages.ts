/**
 * Private profiling aid for GET /messages (issue #11): seeds a history once into a kept file,
 * then times the GET /messages operation in-process (no HTTP) at concurrency 1 and 8, and
 * optionally over HTTP against a child server.
 *
 *   node --import tsx bench/profile-get-messages.ts seed <dir>     # once (BENCH_MESSAGES sets the size)
 *   node --import tsx bench/profile-get-messages.ts op <dir>       # operation p50/p99
 *   node --import tsx bench/profile-get-messages.ts http <dir>     # HTTP p50/p99 (server in a child)
 *   node --import tsx bench/profile-get-messages.ts stmts <dir>    # per-statement time and query plans
 *
 * The seeded file is copied before each run so a run never changes the reference history.
 */
import { fork } from 'node:child_process';
import { copyFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { closeContext, createContext, getMessages } from '@teamchat/core';
import { measure, printTable, type Sample } from './harness.js';
import { httpClient } from './http-client.js';
import { seedMessages } from './seed-messages.js';

const [mode, dir] = process.argv.slice(2) as [string, string];
const seeded = join(dir, 'seeded.db');
const working = join(dir, 'working.db');
const durationMs = Number(process.env.BENCH_DURATION_MS ?? 3000);

type Query = { name: string; params: (i: number) => Record<string, unknown> };
function queries(streamIds: number[]): Query[] {
  return [
    { name: 'channel+topic, newest 50', params: (i) => ({ anchor: 'newest', num_before: 50, num_after: 0, narrow: [
      { operator: 'channel', operand: streamIds[i % streamIds.length] }, { operator: 'topic', operand: `topic ${i % 10}` }] }) },
    { name: 'is:unread, newest 50', params: () => ({ anchor: 'newest', num_before: 50, num_after: 0, narrow: [{ operator: 'is', operand: 'unread' }] }) },
    { name: 'is:unread, first_unread', params: () => ({ anchor: 'first_unread', num_before: 0, num_after: 50, narrow: [{ operator: 'is', operand: 'unread' }] }) },
  ];
}

/** Parameters as a transport hands them over (form text; JSON-typed ones as JSON), so validation takes its HTTP path. */
const asForm = (params: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(params).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)]));

function copyDb() {
  for (const suffix of ['', '-wal', '-shm']) if (existsSync(seeded + suffix)) copyFileSync(seeded + suffix, working + suffix);
}

if (mode === 'seed') {
  const sizes = { messages: Number(process.env.BENCH_MESSAGES ?? 1_000_000), channels: 100, users: 1000, subscribersPerChannel: 10, topicsPerChannel: 10, bigTopicMessages: 50_000 };
  const world = await seedMessages(sizes, seeded, (line) => console.error(line));
  writeFileSync(join(dir, 'world.json'), JSON.stringify({ streamIds: world.streamIds }));
  await closeContext(world.ctx);
} else if (mode === 'op') {
  copyDb();
  const { streamIds } = JSON.parse(readFileSync(join(dir, 'world.json'), 'utf8')) as { streamIds: number[] };
  const ctx = createContext({ databaseFile: working, config: { timers: false } });
  const caller = await ctx.storage.read(async (tx) => {
    const realm = (await tx.realms.all())[0]!;
    return { realm, user: (await tx.users.list(realm.id))[0]! };
  });
  const samples: Sample[] = [];
  for (const q of queries(streamIds)) {
    for (const concurrency of [1, 8]) {
      // CPU time per operation as well: wall-clock percentiles drift with the machine's other load.
      const cpu = process.cpuUsage();
      const sample = await measure(`op ${q.name}`, async (i) => {
        const r = await getMessages(ctx, caller, asForm(q.params(i)));
        if (r.isErr()) throw new Error(r.error.msg);
      }, { durationMs, concurrency });
      const used = process.cpuUsage(cpu);
      samples.push({ ...sample, name: `${sample.name} (cpu ${((used.user + used.system) / 1000 / sample.ops).toFixed(3)} ms/op incl. warm-up)` });
    }
  }
  printTable(samples);
  await closeContext(ctx);
} else if (mode === 'stmts') {
  copyDb();
  const { streamIds } = JSON.parse(readFileSync(join(dir, 'world.json'), 'utf8')) as { streamIds: number[] };
  // Wraps every prepared statement to time it by SQL text (same module instance as core's).
  const Database = createRequire(new URL('../packages/core/package.json', import.meta.url))('better-sqlite3');
  const timings = new Map<string, { calls: number; ms: number; rows: number }>();
  const prepare = Database.prototype.prepare;
  let db: { prepare(sql: string): { all(...a: unknown[]): unknown[] } } | undefined;
  Database.prototype.prepare = function (this: never, sql: string) {
    db ??= this;
    const statement = prepare.call(this, sql);
    const proxy: unknown = new Proxy(statement, {
      get(target, key) {
        const value = Reflect.get(target, key);
        if (typeof value !== 'function') return value;
        return (...args: unknown[]) => {
          const start = performance.now();
          const result = value.apply(target, args);
          if (key === 'all' || key === 'get' || key === 'run') {
            const t = timings.get(sql) ?? { calls: 0, ms: 0, rows: 0 };
            t.calls++;
            t.ms += performance.now() - start;
            t.rows += Array.isArray(result) ? result.length : result ? 1 : 0;
            timings.set(sql, t);
            (t as { args?: unknown[] }).args = args;
          }
          return result === target ? proxy : result;
        };
      },
    });
    return proxy;
  };
  const ctx = createContext({ databaseFile: working, config: { timers: false } });
  const caller = await ctx.storage.read(async (tx) => {
    const realm = (await tx.realms.all())[0]!;
    return { realm, user: (await tx.users.list(realm.id))[0]! };
  });
  for (const q of queries(streamIds)) {
    for (let i = 0; i < 50; i++) await getMessages(ctx, caller, asForm(q.params(i)));
    timings.clear();
    const runs = 200;
    const start = performance.now();
    for (let i = 0; i < runs; i++) await getMessages(ctx, caller, asForm(q.params(i)));
    const total = performance.now() - start;
    console.log(`\n== ${q.name}: ${(total / runs).toFixed(3)} ms per call; statements:`);
    let inSql = 0;
    for (const [sql, t] of [...timings].sort((a, b) => b[1].ms - a[1].ms)) {
      inSql += t.ms;
      console.log(`${(t.ms / runs).toFixed(3)} ms  ${(t.calls / runs).toFixed(1)}x  rows ${(t.rows / t.calls).toFixed(1)}  ${sql.replace(/\s+/g, ' ').slice(0, 200)}`);
      if (/^\s*SELECT|^\s*WITH/i.test(sql)) {
        const plan = db!.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...((t as { args?: unknown[] }).args ?? [])) as { detail: string }[];
        for (const row of plan) console.log(`      ${row.detail}`);
      }
    }
    console.log(`in SQL: ${(inSql / runs).toFixed(3)} ms per call`);
  }
  await closeContext(ctx);
} else if (mode === 'http') {
  copyDb();
  const { streamIds } = JSON.parse(readFileSync(join(dir, 'world.json'), 'utf8')) as { streamIds: number[] };
  const child = fork(new URL('./serve-file.ts', import.meta.url), [working], { execArgv: ['--import', 'tsx', ...(process.env.PROFILE_DIR ? ['--cpu-prof', `--cpu-prof-dir=${process.env.PROFILE_DIR}`] : [])] });
  const info = await new Promise<{ url: string; email: string; apiKey: string }>((resolve, reject) => {
    child.once('message', (m) => resolve(m as never));
    child.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
  });
  const client = httpClient(info.url, info.email, info.apiKey, 8);
  const samples: Sample[] = [];
  for (const q of queries(streamIds)) {
    samples.push(await measure(`http ${q.name}`, (i) => {
      const search = Object.entries(asForm(q.params(i))).map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('&');
      return client.call('GET', `/messages?${search}`);
    }, { durationMs, concurrency: 8 }));
  }
  client.close();
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.disconnect();
  await exited;
  printTable(samples);
}
