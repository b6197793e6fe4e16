/**
 * The send figures. Throughput: POST /messages to the channel "fifty" (the sender and 50 other
 * subscribers) from autocannon with 50 connections, in messages per second, against raw
 * better-sqlite3 inserting the same rows one fsynced transaction per message
 * (bench/baselines/raw-insert.ts) in the same run. Latency: POST /messages sent on a fixed
 * schedule (open loop) at half the throughput just measured, p99 from each request's scheduled
 * time, so that a stalled server cannot hide its queue by slowing the client down.
 */
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { closedLoop, type Figure, inTurns, listRuns, median, productRuns, progress, quantile, SECONDS, WARMUP_SECONDS } from './harness.js';
import { agentFor, send } from './loopback-client.js';
import { runScript, startTeamchat, stop } from './processes.js';
import { basicAuth, copyWorld, type World } from './seed-world.js';
import { databasePath } from '../packages/cli/src/data-dir.js';

const CONNECTIONS = 50;

export async function sendFigures(world: World, tmp: string): Promise<Figure[]> {
  const form = { type: 'stream', to: String(world.fiftyStreamId), topic: 'bench', content: 'hello' };
  const product = await startTeamchat(copyWorld(world, join(tmp, 'sends')));
  try {
    let rawRun = 0;
    const baseline = async (warmup: boolean) => {
      const file = join(tmp, `raw-${rawRun++}.db`);
      copyFileSync(databasePath(world.dir), file);
      const args = [file, String(world.fiftyStreamId), String(world.ownerId), String(warmup ? WARMUP_SECONDS : SECONDS)];
      return (await runScript<{ perSecond: number }>('./baselines/raw-insert.ts', args)).perSecond;
    };
    const latencies: number[][] = [];
    const productLoad = async (warmup: boolean) => {
      const result = await closedLoop({
        url: `${product.url}/api/v1/messages`,
        connections: CONNECTIONS,
        seconds: warmup ? WARMUP_SECONDS : SECONDS,
        method: 'POST',
        headers: { authorization: basicAuth(world.owner), 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(form).toString(),
      });
      if (!warmup) latencies.push([result.p50Ms, result.p99Ms]);
      return result.perSecond;
    };
    progress('POST /messages: raw better-sqlite3 and teamchat in turns');
    const throughput = await inTurns(baseline, productLoad);
    const sustained = median(throughput.product);

    const rate = sustained / 2;
    progress(`POST /messages open loop at ${rate.toFixed(0)}/s`);
    const p99s = await productRuns((warmup) => openLoopP99(product.url, world, form, rate, warmup ? WARMUP_SECONDS : SECONDS));
    return [
      {
        name: 'POST /messages, 50 subscribers, messages/s (concurrency 50)',
        unit: 'msg/s',
        value: sustained,
        baseline: median(throughput.baseline),
        target: { of: 'ratio', atLeast: 1 },
        notes: [
          `autocannon -c ${CONNECTIONS}, ${SECONDS} s per run; baseline: raw better-sqlite3, synchronous = FULL, one transaction per message of the same 53 rows`,
          `teamchat runs: ${listRuns(throughput.product, 'msg/s')} (p50/p99 ms: ${latencies.map(([p50, p99]) => `${p50}/${p99}`).join(', ')}); raw runs: ${listRuns(throughput.baseline, 'msg/s')}`,
        ],
      },
      {
        name: 'POST /messages p99 at half the sustained rate (open loop)',
        unit: 'ms',
        value: median(p99s),
        target: { of: 'value', atMost: 25 },
        notes: [`${rate.toFixed(0)} messages/s on a fixed schedule for ${SECONDS} s, latency from each request's scheduled time; runs: ${listRuns(p99s, 'ms')}`],
      },
    ];
  } finally {
    await stop(product.child);
  }
}

/** Sends POST /messages at `rate` per second for `seconds`, whatever the answers' pace; resolves with the p99 latency in ms. */
async function openLoopP99(url: string, world: World, form: Record<string, string>, rate: number, seconds: number): Promise<number> {
  const agent = agentFor(1024);
  const total = Math.max(1, Math.round(rate * seconds));
  const latencies: number[] = [];
  const pending: Promise<void>[] = [];
  const failures: string[] = [];
  const started = performance.now();
  let next = 0;
  await new Promise<void>((resolve) => {
    const tick = () => {
      const now = performance.now();
      while (next < total && started + (next * 1000) / rate <= now) {
        const scheduled = started + (next * 1000) / rate;
        next++;
        pending.push(
          send(url, agent, { method: 'POST', path: '/api/v1/messages', credentials: world.owner, form }).then(
            (answer) => {
              if (answer.status === 200) latencies.push(performance.now() - scheduled);
              else failures.push(`${answer.status} ${answer.body.toString('utf8')}`);
            },
            (error: Error) => void failures.push(error.message),
          ),
        );
      }
      if (next < total) setTimeout(tick, 1);
      else resolve();
    };
    tick();
  });
  await Promise.all(pending);
  agent.destroy();
  if (failures.length > 0) throw new Error(`POST /messages (open loop): ${failures.length} failed, first: ${failures[0]}`);
  return quantile(latencies, 0.99);
}
