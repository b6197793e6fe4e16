/**
 * The seeded history of the history figure, kept between invocations: seeding a million
 * messages takes about 90 s on an idle 2-core machine (much longer beside other work), more than
 * the figure itself. The copy is keyed by the seed's sizes, its code and core's storage code
 * (schema and migrations), so a change to any of them seeds again; BENCH_SEED_CACHE=off never
 * keeps one, BENCH_SEED_CACHE=DIR keeps it in DIR (default: the system temp directory). Every
 * invocation serves its own copy.
 */
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { closeContext } from '@teamchat/core';
import { progress } from './harness.js';
import { type MessageSeedSizes, seedMessages } from './seed-messages.js';
import type { Credentials } from './seed-world.js';

export interface SeededHistory {
  dir: string;
  owner: Credentials;
  streamIds: number[];
  /** How the history came to be, for the figure's notes. */
  origin: string;
}

const setting = process.env.BENCH_SEED_CACHE ?? join(tmpdir(), 'teamchat-bench-seed');

/** Every file under `path`, in a stable order. */
function filesUnder(path: string): string[] {
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path).sort().flatMap((name) => filesUnder(join(path, name)));
}

function cacheKey(sizes: MessageSeedSizes): string {
  const hash = createHash('sha256').update(JSON.stringify(sizes));
  const sources = [new URL('./seed-messages.ts', import.meta.url), new URL('./seed-world.ts', import.meta.url), new URL('../packages/core/src/storage', import.meta.url)];
  for (const file of sources.flatMap((url) => filesUnder(fileURLToPath(url)))) hash.update(file).update(readFileSync(file));
  return `${sizes.messages}-${hash.digest('hex').slice(0, 16)}`;
}

/** A copy of the seeded history in `into` (seeding it, and keeping it, if no kept copy fits). */
export async function seededHistory(sizes: MessageSeedSizes, into: string): Promise<SeededHistory> {
  const cache = setting === 'off' ? null : join(setting, cacheKey(sizes));
  if (cache && existsSync(join(cache, 'meta.json'))) {
    cpSync(join(cache, 'data'), into, { recursive: true });
    const meta = JSON.parse(readFileSync(join(cache, 'meta.json'), 'utf8')) as Omit<SeededHistory, 'dir' | 'origin'>;
    return { ...meta, dir: into, origin: `seeded earlier, copied from ${cache}` };
  }
  progress(`history: seeding ${sizes.messages.toLocaleString('en-US')} messages`);
  const started = performance.now();
  const seeded = await seedMessages(sizes, into, (line) => progress(line.trim()));
  const meta = { owner: { email: seeded.owner.deliveryEmail, apiKey: seeded.owner.apiKey }, streamIds: seeded.streamIds };
  await closeContext(seeded.ctx);
  const origin = `seeded in ${((performance.now() - started) / 1000).toFixed(0)} s`;
  if (cache) {
    // One history is kept per size (the newest code's); a partial copy is never taken for a whole one.
    mkdirSync(setting, { recursive: true });
    for (const old of readdirSync(setting).filter((name) => name.startsWith(`${sizes.messages}-`))) rmSync(join(setting, old), { recursive: true, force: true });
    const partial = `${cache}.partial`;
    cpSync(into, join(partial, 'data'), { recursive: true });
    writeFileSync(join(partial, 'meta.json'), JSON.stringify(meta));
    renameSync(partial, cache);
  }
  return { ...meta, dir: into, origin };
}
