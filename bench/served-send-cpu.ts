/**
 * The served process's CPU per POST /messages, as bench/sends.ts loads it (autocannon -c 50, the
 * owner posts "hello" to "fifty"), read from /proc/PID/stat (utime + stime) around a measured
 * run and divided by the 2xx answers. Unlike a wall-clock figure it does not charge the server
 * for time it was preempted, so it can be compared across turns on a shared machine. Runs the
 * built CLI (packages/cli/dist), so build first.
 *
 *   node --import tsx bench/served-send-cpu.ts          # seeds a world in a temporary directory
 *   BENCH_WORLD=/tmp/w node --import tsx bench/served-send-cpu.ts   # seeds /tmp/w once, then reuses it
 *
 * BENCH_SECONDS (default 5) per measured run, after a 2-second warm-up; BENCH_RUNS (default 1).
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { closedLoop } from './harness.js';
import { startTeamchat, stop } from './processes.js';
import { basicAuth, copyWorld, seedWorld, type World } from './seed-world.js';

const seconds = Number(process.env.BENCH_SECONDS ?? 5);
const runs = Number(process.env.BENCH_RUNS ?? 1);
const tmp = mkdtempSync(join(tmpdir(), 'teamchat-served-send-'));
const TICKS_PER_SECOND = 100; // USER_HZ on Linux

/** utime + stime of `pid`, in µs. */
function cpuOf(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return ((Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND) * 1e6;
}

async function world(): Promise<World> {
  const saved = process.env.BENCH_WORLD;
  if (saved && existsSync(join(saved, 'world.json'))) return JSON.parse(readFileSync(join(saved, 'world.json'), 'utf8')) as World;
  const seeded = await seedWorld(saved ?? tmp);
  if (saved) writeFileSync(join(saved, 'world.json'), JSON.stringify(seeded));
  return seeded;
}

try {
  const seeded = await world();
  const product = await startTeamchat(copyWorld(seeded, join(tmp, 'served')));
  try {
    const load = (s: number) =>
      closedLoop({
        url: `${product.url}/api/v1/messages`,
        connections: 50,
        seconds: s,
        method: 'POST',
        headers: { authorization: basicAuth(seeded.owner), 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ type: 'stream', to: String(seeded.fiftyStreamId), topic: 'bench', content: 'hello' }).toString(),
      });
    await load(2);
    for (let i = 0; i < runs; i++) {
      const before = cpuOf(product.child.pid!);
      const result = await load(seconds);
      const used = cpuOf(product.child.pid!) - before;
      const sent = result.perSecond * seconds;
      console.log(`served: ${sent.toFixed(0)} sends, ${result.perSecond.toFixed(0)}/s, ${(used / sent).toFixed(0)} µs server CPU per send`);
    }
  } finally {
    await stop(product.child);
  }
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
