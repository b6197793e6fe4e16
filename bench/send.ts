/**
 * A focused benchmark of POST /messages over a seeded history (bench/seed-messages.ts shapes).
 *
 *   BENCH_MESSAGES=100000 node --import tsx bench/send.ts
 *
 * 1. In process: `doSendMessage` called one at a time, with every SQL statement counted (how
 *    many run per send, how many rows they return), so a change can be judged by the work it
 *    removes rather than by noisy timings alone.
 * 2. Over HTTP: POST /messages from 8 clients against a server in a child process.
 *
 * The seeded database is kept in BENCH_SEED_DIR (default: a directory in the system temp
 * directory named after the size) and copied for every run, so runs start from the same file.
 * BENCH_CPU_PROF=dir writes a CPU profile of the server child to `dir`; BENCH_SYNCHRONOUS=normal
 * opens the database with synchronous = NORMAL in both phases.
 */
import { fork } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { closeContext, createContext, doSendMessage } from '@teamchat/core';
import { measure, printTable } from './harness.js';
import { httpClient } from './http-client.js';
import { seedMessages } from './seed-messages.js';

const sizes = {
  messages: Number(process.env.BENCH_MESSAGES ?? 100_000),
  channels: 100,
  users: 1000,
  subscribersPerChannel: 10,
  topicsPerChannel: 10,
  bigTopicMessages: 50_000,
};
const durationMs = Number(process.env.BENCH_DURATION_MS ?? 5000);
const inProcessSends = Number(process.env.BENCH_SENDS ?? 300);

const seedDir = process.env.BENCH_SEED_DIR ?? join(tmpdir(), `teamchat-bench-send-${sizes.messages}`);
const seeded = join(seedDir, 'seeded.db');
if (!existsSync(seeded)) {
  mkdirSync(seedDir, { recursive: true });
  const partial = join(seedDir, 'partial.db');
  rmSync(partial, { force: true });
  console.error(`seeding ${sizes.messages} messages into ${seedDir}`);
  const world = await seedMessages(sizes, partial, (line) => console.error(line));
  await closeContext(world.ctx);
  copyFileSync(partial, seeded);
  rmSync(partial, { force: true });
}

const tmp = mkdtempSync(join(tmpdir(), 'teamchat-bench-send-run-'));
try {
  // 1. In process, with every statement counted.
  const inProcessFile = join(tmp, 'in-process.db');
  copyFileSync(seeded, inProcessFile);
  const counts = countStatements();
  const synchronous = process.env.BENCH_SYNCHRONOUS === 'normal' ? 'normal' : 'full';
  const ctx = createContext({ databaseFile: inProcessFile, config: { timers: false }, sqlite: { synchronous } });
  const { realm, owner, streamIds } = await ctx.storage.read(async (tx) => {
    const realm = (await tx.realms.all())[0]!;
    const owner = (await tx.users.list(realm.id))[0]!;
    const streamIds = (await tx.streams.list(realm.id)).map((s) => s.id);
    return { realm, owner, streamIds };
  });
  const send = (i: number) =>
    doSendMessage(ctx, { realm, user: owner }, { type: 'stream', to: String(streamIds[i % streamIds.length]), topic: 'bench', content: `hello **${i}**` });
  for (let i = 0; i < 20; i++) (await send(i))._unsafeUnwrap();
  counts.reset();
  const started = performance.now();
  for (let i = 0; i < inProcessSends; i++) (await send(i))._unsafeUnwrap();
  const elapsed = performance.now() - started;
  await closeContext(ctx);
  counts.print(inProcessSends);
  console.log(`in process: ${inProcessSends} sequential sends, ${(elapsed / inProcessSends).toFixed(2)} ms per send\n`);

  // 2. Over HTTP from 8 clients.
  const httpFile = join(tmp, 'http.db');
  copyFileSync(seeded, httpFile);
  const profile = process.env.BENCH_CPU_PROF;
  const child = fork(new URL('./serve-file.ts', import.meta.url), [httpFile], {
    execArgv: ['--import', 'tsx', ...(profile ? ['--cpu-prof', `--cpu-prof-dir=${profile}`] : [])],
  });
  const info = await new Promise<{ url: string; email: string; apiKey: string }>((resolve, reject) => {
    child.once('message', (m) => resolve(m as never));
    child.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
  });
  try {
    const client = httpClient(info.url, info.email, info.apiKey, 8);
    const sample = await measure(
      'POST /messages to a channel',
      (i) => client.call('POST', '/messages', { type: 'stream', to: String(streamIds[i % streamIds.length]), topic: 'bench', content: `hello **${i}**` }),
      { durationMs, concurrency: 8 },
    );
    client.close();
    printTable([sample]);
  } finally {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.disconnect();
    await exited;
  }
} finally {
  rmSync(tmp, { recursive: true, force: true });
}

/**
 * Wraps better-sqlite3's statements (the copy core loads) to count executions and returned rows
 * per SQL text.
 */
function countStatements() {
  const require = createRequire(new URL('../packages/core/package.json', import.meta.url));
  const Database = require('better-sqlite3') as { prototype: { prepare(sql: string): Record<string, (...a: unknown[]) => unknown> } };
  const stats = new Map<string, { runs: number; rows: number }>();
  const prepare = Database.prototype.prepare;
  Database.prototype.prepare = function (this: unknown, sql: string) {
    const statement = prepare.call(this, sql);
    const key = sql.replace(/\s+/g, ' ').trim();
    for (const method of ['run', 'get', 'all'] as const) {
      const original = statement[method]!.bind(statement);
      statement[method] = (...args: unknown[]) => {
        const result = original(...args);
        const entry = stats.get(key) ?? { runs: 0, rows: 0 };
        entry.runs++;
        entry.rows += method === 'all' ? (result as unknown[]).length : method === 'get' ? (result === undefined ? 0 : 1) : 0;
        stats.set(key, entry);
        return result;
      };
    }
    return statement;
  };
  return {
    reset: () => stats.clear(),
    print(sends: number) {
      const rows = [...stats].sort((a, b) => b[1].rows - a[1].rows || b[1].runs - a[1].runs);
      let runs = 0;
      let read = 0;
      console.log('per send: runs  rows  statement');
      for (const [sql, s] of rows) {
        runs += s.runs;
        read += s.rows;
        console.log(`${(s.runs / sends).toFixed(2).padStart(9)} ${(s.rows / sends).toFixed(1).padStart(6)}  ${sql.slice(0, 110)}`);
      }
      console.log(`total per send: ${(runs / sends).toFixed(1)} statements, ${(read / sends).toFixed(1)} rows returned`);
    },
  };
}
