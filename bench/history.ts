/**
 * The history figure: GET /messages, a 50-message page (channel + topic narrow, anchor newest,
 * 50 before; the narrow moves over 100 channels × 10 topics), over BENCH_MESSAGES (default
 * 1,000,000) stored messages, p99 from autocannon with 8 connections. The history is seeded
 * through core (bench/history-seed.ts keeps it between invocations), and one server serves it
 * to every run. No baseline: the target is absolute.
 */
import { join } from 'node:path';
import { closedLoop, type Figure, listRuns, median, productRuns, progress, SECONDS, WARMUP_SECONDS } from './harness.js';
import { seededHistory } from './history-seed.js';
import { startTeamchat, stop } from './processes.js';
import { basicAuth } from './seed-world.js';

const CONNECTIONS = 8;
const SIZES = { messages: Number(process.env.BENCH_MESSAGES ?? 1_000_000), channels: 100, users: 1000, subscribersPerChannel: 10, topicsPerChannel: 10 };

export async function historyFigures(tmp: string): Promise<Figure[]> {
  const { dir, owner, streamIds, origin } = await seededHistory(SIZES, join(tmp, 'history'));
  const product = await startTeamchat(dir);
  try {
    let i = 0;
    const path = () => {
      const narrow = [
        { operator: 'channel', operand: streamIds[i % streamIds.length] },
        { operator: 'topic', operand: `topic ${Math.floor(i / streamIds.length) % SIZES.topicsPerChannel}` },
      ];
      i++;
      return `/api/v1/messages?anchor=newest&num_before=50&num_after=0&narrow=${encodeURIComponent(JSON.stringify(narrow))}`;
    };
    const rates: number[] = [];
    progress('history: GET /messages');
    const p99s = await productRuns(async (warmup) => {
      const result = await closedLoop({ url: product.url, connections: CONNECTIONS, seconds: warmup ? WARMUP_SECONDS : SECONDS, headers: { authorization: basicAuth(owner) }, path });
      if (!warmup) rates.push(result.perSecond);
      return result.p99Ms;
    });
    return [
      {
        name: `GET /messages, 50-message page, ${SIZES.messages.toLocaleString('en-US')} stored, p99 (concurrency 8)`,
        unit: 'ms',
        value: median(p99s),
        target: { of: 'value', atMost: 5 },
        notes: [
          `autocannon -c ${CONNECTIONS}, ${SECONDS} s per run, as the owner (subscribed to all 100 channels); runs: ${listRuns(p99s, 'ms')} at ${listRuns(rates, 'req/s')}`,
          `history: ${origin}`,
        ],
      },
    ];
  } finally {
    await stop(product.child);
  }
}
