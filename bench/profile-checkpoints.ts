/**
 * Where WAL checkpoints run, in turns: two file databases in this process, one checkpointed by
 * SQLite inside COMMIT (`checkpoints: 'in-commit'`, every 1000 pages), one by the worker thread
 * (the default). Each gets `doSendMessage` to a channel of 50 subscribers on a fixed schedule
 * (BENCH_RATE per second, default 200) for BENCH_SLICE_SECONDS (default 2), alternately, for
 * BENCH_ROUNDS (default 6) rounds. Per mode it prints the latency from each send's scheduled
 * time (p50, p99), the COMMIT durations (p50, p99, max, how many over 10 ms), the main thread's
 * CPU time inside COMMITs per send (Linux: /proc/self/task/PID/schedstat, time on the CPU, so
 * not inflated by waiting for it) and the event-loop stalls over 10 ms. Turns that alternate within one run share the machine's load,
 * which wall-clock figures from separate runs do not on a shared machine.
 *
 *   node --import tsx bench/profile-checkpoints.ts
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { closeContext, type Ctx, doSendMessage } from '../packages/core/src/index.js';
import { createSqliteContext } from '../packages/core/src/sqlite.js';
import { probeWorld } from './probe-world.js';

const rate = Number(process.env.BENCH_RATE ?? 200);
const sliceSeconds = Number(process.env.BENCH_SLICE_SECONDS ?? 2);
const rounds = Number(process.env.BENCH_ROUNDS ?? 6);
// BENCH_CHECKPOINT_MS: the worker's interval (default: the driver's).
const intervalMs = process.env.BENCH_CHECKPOINT_MS ? Number(process.env.BENCH_CHECKPOINT_MS) : undefined;

type Mode = 'in-commit' | 'worker';
interface Figures {
  latencies: number[];
  commits: number[];
  /** The main thread's time on the CPU inside COMMITs, in ms (load-robust: not time waited). */
  commitCpu: number;
  stalls: number[];
}
const figures: Record<Mode, Figures> = {
  'in-commit': { latencies: [], commits: [], commitCpu: 0, stalls: [] },
  worker: { latencies: [], commits: [], commitCpu: 0, stalls: [] },
};
/** The main thread's time on the CPU so far, in ms (Linux schedstat; 0 elsewhere). */
const schedstat = `/proc/self/task/${process.pid}/schedstat`;
const mainThreadCpu = existsSync(schedstat) ? () => Number(readFileSync(schedstat, 'utf8').split(' ')[0]) / 1e6 : () => 0;
let current: Mode | undefined;

// COMMIT durations, timed around better-sqlite3's Statement#run (group commit's COMMIT).
const Database = createRequire(new URL('../packages/core/package.json', import.meta.url))('better-sqlite3');
const probe = new Database(':memory:');
const statementPrototype = Object.getPrototypeOf(probe.prepare('SELECT 1'));
probe.close();
const run = statementPrototype.run;
statementPrototype.run = function timedRun(this: { source: string }, ...params: unknown[]) {
  if (this.source !== 'COMMIT' || !current) return run.apply(this, params);
  const started = performance.now();
  const cpu = mainThreadCpu();
  try {
    return run.apply(this, params);
  } finally {
    figures[current].commits.push(performance.now() - started);
    figures[current].commitCpu += mainThreadCpu() - cpu;
  }
};

// Event-loop stalls: how late a 5 ms interval fires.
let last = performance.now();
setInterval(() => {
  const now = performance.now();
  if (current && now - last - 5 > 10) figures[current].stalls.push(now - last - 5);
  last = now;
}, 5).unref();

async function world(file: string, checkpoints: Mode) {
  const ctx = createSqliteContext({ databaseFile: file, config: { timers: false }, sqlite: { checkpoints: checkpoints === 'in-commit' ? checkpoints : { intervalMs } } });
  const { actor } = await probeWorld(ctx, 49, 'bench');
  return { ctx, actor };
}

/** Sends at `rate` for `sliceSeconds`, each send timed from its scheduled moment. */
async function slice(mode: Mode, ctx: Ctx, actor: Parameters<typeof doSendMessage>[1]): Promise<void> {
  current = mode;
  const total = Math.round(rate * sliceSeconds);
  const started = performance.now();
  const pending: Promise<void>[] = [];
  let next = 0;
  await new Promise<void>((resolve) => {
    const tick = () => {
      while (next < total && started + (next * 1000) / rate <= performance.now()) {
        const scheduled = started + (next * 1000) / rate;
        const i = next++;
        pending.push(
          doSendMessage(ctx, actor, { type: 'stream', to: 'bench', topic: `topic ${i % 20}`, content: `hello **${i}**` }).then((sent) => {
            if (sent.isErr()) throw new Error(sent.error.msg);
            figures[mode].latencies.push(performance.now() - scheduled);
          }),
        );
      }
      if (next < total) setTimeout(tick, 1);
      else resolve();
    };
    tick();
  });
  await Promise.all(pending);
  current = undefined;
}

const quantile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
};
const ms = (value: number) => value.toFixed(1);

const tmp = mkdtempSync(join(tmpdir(), 'teamchat-profile-checkpoints-'));
try {
  const worlds = { 'in-commit': await world(join(tmp, 'in-commit.db'), 'in-commit'), worker: await world(join(tmp, 'worker.db'), 'worker') };
  for (let round = 0; round < rounds; round++) {
    for (const mode of round % 2 === 0 ? (['in-commit', 'worker'] as const) : (['worker', 'in-commit'] as const)) {
      await slice(mode, worlds[mode].ctx, worlds[mode].actor);
    }
  }
  for (const mode of ['in-commit', 'worker'] as const) {
    const { latencies, commits, commitCpu, stalls } = figures[mode];
    console.log(
      `${mode}: ${latencies.length} sends at ${rate}/s; latency p50 ${ms(quantile(latencies, 0.5))} p99 ${ms(quantile(latencies, 0.99))} ms;` +
        ` ${commits.length} COMMITs p50 ${ms(quantile(commits, 0.5))} p99 ${ms(quantile(commits, 0.99))} max ${ms(quantile(commits, 1))} ms,` +
        ` ${commits.filter((c) => c > 10).length} over 10 ms, main-thread CPU in COMMIT ${((commitCpu * 1000) / latencies.length).toFixed(0)} µs per send; ${stalls.length} event-loop stalls over 10 ms (${ms(stalls.reduce((a, b) => a + b, 0))} ms in all)`,
    );
  }
  await Promise.all([closeContext(worlds['in-commit'].ctx), closeContext(worlds.worker.ctx)]);
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
