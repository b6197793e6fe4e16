/**
 * Hostile-input bounds (issue #10), as ratios to a baseline measured in the same run: each
 * hostile input costs about what an ordinary one does, not what its size would make it cost.
 *
 *   node --import tsx bench/bounds.ts            # 10,000 messages for the search rows
 *   BENCH_MESSAGES=50000 node --import tsx bench/bounds.ts
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { closeContext, getMessages, validateInput } from '@teamchat/core';
import { RegisterParams } from '../packages/core/src/schemas/events.js';
import { sanitizeFileName } from '../packages/core/src/uploads/path-id.js';
import { seedMessages } from './seed-messages.js';

/** Median milliseconds of `runs` calls of `task`. */
async function median(task: () => unknown, runs = 7): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    await task();
    times.push(performance.now() - start);
  }
  return times.sort((a, b) => a - b)[Math.floor(runs / 2)]!;
}

const rows: Array<[string, number, number]> = [];
const row = async (name: string, baseline: () => unknown, hostile: () => unknown) => {
  rows.push([name, await median(baseline), await median(hostile)]);
};

const smallNarrow = JSON.stringify([['is', 'starred']]);
const millionNarrow = JSON.stringify(Array.from({ length: 1_000_000 }, (_, i) => i));
const manyBadTerms = JSON.stringify(Array.from({ length: 30_000 }, (_, i) => i % 10));
await row('register narrow: 1,000,000 integers vs one term', () => validateInput(RegisterParams, { narrow: smallNarrow }), () => validateInput(RegisterParams, { narrow: millionNarrow }));
await row('register narrow: 30,000 bad terms vs one term', () => validateInput(RegisterParams, { narrow: smallNarrow }), () => validateInput(RegisterParams, { narrow: manyBadTerms }));
await row('file name: 40,000 characters vs 40', () => sanitizeFileName(`${'\u00e9'.repeat(40)}.txt`), () => sanitizeFileName(`${'\u00e9'.repeat(40_000)}.txt`));

const tmp = mkdtempSync(join(tmpdir(), 'teamchat-bounds-'));
try {
  const messages = Number(process.env.BENCH_MESSAGES ?? 10_000);
  const seeded = await seedMessages({ messages, channels: 5, users: 20, subscribersPerChannel: 5, topicsPerChannel: 20, bigTopicMessages: 0 }, join(tmp, 'db.sqlite'));
  const actor = { realm: seeded.realm, user: seeded.owner };
  const search = (terms: number) => {
    const narrow = JSON.stringify(Array.from({ length: terms }, (_, i) => ({ operator: 'search', operand: ['message', 'about', 'things'][i % 3] })));
    return () => getMessages(seeded.ctx, actor, { narrow, anchor: 'newest', num_before: 100, num_after: 0 });
  };
  await row(`search on ${messages} messages: 100 terms vs one`, search(1), search(100));
  await closeContext(seeded.ctx);
} finally {
  rmSync(tmp, { recursive: true, force: true });
}

console.log('| input | baseline (ms) | hostile (ms) | ratio |');
console.log('| --- | ---: | ---: | ---: |');
for (const [name, base, hostile] of rows) {
  console.log(`| ${name} | ${base.toFixed(2)} | ${hostile.toFixed(2)} | ${(hostile / Math.max(base, 0.01)).toFixed(1)}× |`);
}
