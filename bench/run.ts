/**
 * `npm run bench`: the figures of issue #11, each as value, baseline, ratio and target. The
 * server under test is the built CLI in its own process on loopback; the load generator is this
 * process. See BENCHMARKS.md for the method.
 *
 *   npm run bench                                  # every group but cluster, under 10 minutes on 2 cores
 *   BENCH_ONLY=reads,sends npm run bench           # groups: reads, sends, fanout, memory, history, cluster
 *   BENCH_MESSAGES=100000 npm run bench            # a smaller history (the seed dominates)
 *   BENCH_SECONDS=2 npm run bench                  # shorter measured runs (default 5 s)
 *   BENCH_ONLY=cluster npm run bench               # SQLite vs 1-3 processes on PostgreSQL (BENCH_DATABASE_URL,
 *                                                  #   BENCH_CLUSTER_MESSAGES: the history's size, default 20,000)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { dropAllDatabases } from './cluster-database.js';
import { clusterFigures } from './cluster.js';
import { fanoutFigures } from './fanout.js';
import { type Figure, judge, printFigures, progress, SECONDS } from './harness.js';
import { historyFigures } from './history.js';
import { memoryFigures } from './memory.js';
import { killAllNow, pinLoadGenerator, stopAll } from './processes.js';
import { readFigures } from './reads.js';
import { sendFigures } from './sends.js';
import { seedWorld, type World } from './seed-world.js';

type Group = (world: () => Promise<World>, tmp: string) => Promise<Figure[]>;
const GROUPS: Record<string, Group> = {
  reads: async (world, tmp) => readFigures(await world(), tmp),
  sends: async (world, tmp) => sendFigures(await world(), tmp),
  fanout: async (world, tmp) => fanoutFigures(await world(), tmp),
  memory: async (world, tmp) => memoryFigures(await world(), tmp),
  history: (_, tmp) => historyFigures(tmp),
  // Not in the default run: it needs PostgreSQL and takes about as long as the rest together.
  cluster: (_, tmp) => clusterFigures(tmp),
};
const OPT_IN = ['cluster'];

const only = process.env.BENCH_ONLY?.split(',').map((name) => name.trim()).filter(Boolean);
const unknown = only?.filter((name) => !(name in GROUPS)) ?? [];
if (unknown.length > 0) {
  console.error(`BENCH_ONLY: unknown group(s) ${unknown.join(', ')}; the groups are ${Object.keys(GROUPS).join(', ')}`);
  process.exit(2);
}
const chosen = Object.keys(GROUPS).filter((name) => (only ? only.includes(name) : !OPT_IN.includes(name)));

const tmp = mkdtempSync(join(tmpdir(), 'teamchat-bench-'));
let cleaned = false;
async function cleanUp(): Promise<void> {
  if (cleaned) return;
  cleaned = true;
  await stopAll();
  await dropAllDatabases().catch((error: Error) => console.error(`dropping the benchmark's databases: ${error.message}`));
  rmSync(tmp, { recursive: true, force: true });
}
process.on('exit', killAllNow);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    console.error(`\n${signal}: stopping the processes the benchmark started`);
    void cleanUp().finally(() => process.exit(130));
  });
}

const started = Date.now();
console.log(`teamchat benchmarks: node ${process.version}, ${cpus().length} cores (${cpus()[0]?.model ?? 'unknown CPU'}), ${SECONDS} s per measured run, loopback only`);
console.log(pinLoadGenerator());
const load = () => loadavg().map((l) => l.toFixed(1)).join(' ');
// Other work on the machine moves absolute figures a lot; the ratios are what to read.
console.log(`load average at start: ${load()}`);
let world: Promise<World> | undefined;
const seeded = () => {
  if (!world) {
    progress('seeding the world (1,000 members, channels "fifty" and "everyone")');
    world = seedWorld(tmp);
  }
  return world;
};
const figures: Figure[] = [];
let failed = false;
try {
  for (const name of chosen) {
    try {
      figures.push(...(await GROUPS[name]!(seeded, tmp)));
    } catch (error) {
      failed = true;
      console.error(`group ${name} failed: ${(error as Error).stack ?? error}`);
      await stopAll();
    }
  }
} finally {
  await cleanUp();
}
console.log('');
printFigures(figures);
const missed = figures.filter((figure) => !judge(figure).met).length;
console.log(`\n${figures.length} figures, ${missed} missed target; load average at the end ${load()}; total ${((Date.now() - started) / 1000).toFixed(0)} s`);
process.exitCode = failed ? 1 : 0;
