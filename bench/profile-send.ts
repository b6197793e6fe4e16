/**
 * The CPU cost of one send, in process (no HTTP): a file database, a realm with a channel of
 * BENCH_SUBSCRIBERS (default 50) subscribers, and `doSendMessage` called BENCH_SENDS times one
 * at a time, then with BENCH_IN_FLIGHT (default 50) in flight. Prints CPU µs per send
 * (process.cpuUsage, user + system) and every SQL statement run per send with the rows it
 * returned, so a change is judged by the work it removes as well as by time.
 *
 *   node --import tsx bench/profile-send.ts
 *   BENCH_CPU_PROF=/tmp/send.cpuprofile node --import tsx bench/profile-send.ts
 *
 * BENCH_CORE=/path/to/packages/core/src/index.ts measures that copy of core instead (for a
 * before/after in turns: absolute figures drift with the machine's load).
 * BENCH_CPU_PROF writes a CPU profile of the measured sends only (not the setup) to that file.
 * BENCH_SPLIT_COMMIT=1 reports the CPU spent inside BEGIN and COMMIT (the `exec` calls) apart:
 * the COMMIT's write and fsync belong to the storage driver, the rest is what a send itself
 * costs. It is opt-in because process.cpuUsage is a system call that costs tens of µs here,
 * four per send, which the figure outside BEGIN/COMMIT then includes.
 *
 * BENCH_CONTENT sets every message's content (default: Markdown with a link, numbered per send);
 * `BENCH_CONTENT=hello` is what bench/sends.ts sends.
 *
 * BENCH_SYNCHRONOUS=normal opens the database without an fsync per commit, which leaves the CPU (the COMMIT's
 * fsync is group commit's business, not this script's).
 */
import { Session } from 'node:inspector/promises';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type * as Core from '../packages/core/src/index.js';
import type * as CoreSqlite from '../packages/core/src/sqlite.js';
import { probeWorld } from './probe-world.js';
import { countStatements } from './statement-counts.js';

const subscribers = Number(process.env.BENCH_SUBSCRIBERS ?? 50);
const sends = Number(process.env.BENCH_SENDS ?? 2000);
const inFlight = Number(process.env.BENCH_IN_FLIGHT ?? 50);
const splitCommit = process.env.BENCH_SPLIT_COMMIT === '1';
const synchronous = (process.env.BENCH_SYNCHRONOUS ?? 'full') as 'full' | 'normal';
const fixedContent = process.env.BENCH_CONTENT;

// BENCH_CORE names another copy of core's src/index.ts (say, an older commit's) to compare in turns.
const coreEntry = process.env.BENCH_CORE ?? '../packages/core/src/index.js';
const core = (await import(coreEntry)) as typeof Core;
// The SQLite driver's entry beside it; a copy from before that entry existed opened SQLite itself.
const createSqliteContext = await import(coreEntry.replace(/index\.(ts|js)$/, 'sqlite.$1')).then(
  (sqlite: typeof CoreSqlite) => sqlite.createSqliteContext,
  () => core.createContext as unknown as typeof CoreSqlite.createSqliteContext,
);
const { closeContext, doSendMessage } = core;
const counts = countStatements({ splitCommit });
const tmp = mkdtempSync(join(tmpdir(), 'teamchat-profile-send-'));
try {
  const ctx = createSqliteContext({ databaseFile: join(tmp, 'send.db'), config: { timers: false }, sqlite: { synchronous } });
  const { actor } = await probeWorld(ctx, subscribers - 1, 'bench', core);
  const send = async (i: number) => {
    const sent = await doSendMessage(ctx, actor, { type: 'stream', to: 'bench', topic: `topic ${i % 20}`, content: fixedContent ?? `hello **${i}** see https://example.com/${i}` });
    if (sent.isErr()) throw new Error(sent.error.msg);
  };

  for (let i = 0; i < 200; i++) await send(i);

  const profiler = process.env.BENCH_CPU_PROF ? new Session() : undefined;
  if (profiler) {
    profiler.connect();
    await profiler.post('Profiler.enable');
    await profiler.post('Profiler.start');
  }
  counts.reset();
  let cpu = process.cpuUsage();
  let started = performance.now();
  for (let i = 0; i < sends; i++) await send(i);
  report('sequential', cpu, started);
  counts.print(sends);

  cpu = process.cpuUsage();
  started = performance.now();
  let next = 0;
  await Promise.all(Array.from({ length: inFlight }, async () => {
    while (next < sends) await send(next++);
  }));
  report(`${inFlight} in flight`, cpu, started);
  if (profiler) {
    const { profile } = await profiler.post('Profiler.stop');
    writeFileSync(process.env.BENCH_CPU_PROF!, JSON.stringify(profile));
    profiler.disconnect();
  }
  await closeContext(ctx);
} finally {
  rmSync(tmp, { recursive: true, force: true });
}

function report(label: string, since: NodeJS.CpuUsage, started: number): void {
  const used = process.cpuUsage(since);
  const wall = performance.now() - started;
  const perSend = (µs: number) => (µs / sends).toFixed(0);
  const inExec = counts.takeExecCpu();
  const split = splitCommit ? `; ${perSend(inExec)} inside BEGIN/COMMIT, ${perSend(used.user + used.system - inExec)} outside` : '';
  console.log(
    `${label}: ${sends} sends, ${perSend(used.user + used.system)} µs CPU per send (user ${perSend(used.user)}, system ${perSend(used.system)}${split}),` +
      ` ${perSend(wall * 1000)} µs wall per send, ${Math.round((sends / wall) * 1000)}/s`,
  );
}
