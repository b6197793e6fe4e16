/**
 * The rate limits' counts in PostgreSQL (cluster/rate-limits.ts of @teamchat/postgres): the
 * RateLimiter contract, two nodes sharing one count, and pruning.
 */
import { takeFromBucket } from '@teamchat/core';
import postgres from 'postgres';
import { afterEach, describe, expect, it } from 'vitest';
import { joinPostgresCluster } from '../../packages/postgres/src/cluster/index.js';
import { pruneRateLimits } from '../../packages/postgres/src/cluster/rate-limits.js';
import { describeRateLimiter } from '../contract/rate-limiter.case.js';
import { announceSkip, DATABASE_URL, scratchDatabase } from './database.js';

announceSkip('tests/cluster/rate-limiter-postgres.test.ts');

const T0 = 1_700_000_000_000;

async function twoNodes() {
  const db = await scratchDatabase();
  const a = await joinPostgresCluster({ url: db.url, nodeId: 'a' });
  const b = await joinPostgresCluster({ url: db.url, nodeId: 'b' });
  return {
    db,
    a,
    b,
    async close() {
      await a.close();
      await b.close();
      await db.drop();
    },
  };
}

describe.skipIf(!DATABASE_URL)('PostgreSQL rate limiter', () => {
  describeRateLimiter('postgres', async () => {
    const db = await scratchDatabase();
    const member = await joinPostgresCluster({ url: db.url, nodeId: 'n0' });
    return {
      limiter: member.rateLimiter!,
      async close() {
        await member.close();
        await db.drop();
      },
    };
  });

  const closers: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const close of closers.splice(0)) await close();
  });

  it('shares one count between two nodes on one database', async () => {
    const nodes = await twoNodes();
    closers.push(() => nodes.close());
    const bucket = { key: 'api_by_user:3/60:1:10', requests: 3, windowMs: 60_000 };
    expect(await nodes.a.rateLimiter!.hit([bucket], T0)).toEqual([{ allowed: true, emptyAtMs: T0 + 20_000 }]);
    expect(await nodes.b.rateLimiter!.hit([bucket], T0)).toEqual([{ allowed: true, emptyAtMs: T0 + 40_000 }]);
    expect(await nodes.a.rateLimiter!.hit([bucket], T0)).toEqual([{ allowed: true, emptyAtMs: T0 + 60_000 }]);
    expect(await nodes.b.rateLimiter!.hit([bucket], T0)).toEqual([{ allowed: false, emptyAtMs: T0 + 60_000 }]);
    // Concurrent hits on both nodes: exactly the room there is.
    const later = T0 + 120_000;
    const hits = await Promise.all(Array.from({ length: 10 }, (_, i) => (i % 2 ? nodes.a : nodes.b).rateLimiter!.hit([bucket], later)));
    expect(hits.filter(([hit]) => hit!.allowed)).toHaveLength(3);
  });

  it('answers as core’s takeFromBucket does, to the last bit, for costs that are not whole', async () => {
    const nodes = await twoNodes();
    closers.push(() => nodes.close());
    const bucket = { key: 'sevenths', requests: 7, windowMs: 60_000 };
    let stored: number | undefined;
    for (let i = 0; i < 9; i++) {
      const now = T0 + i * 1234.5;
      const expected = takeFromBucket(stored, bucket, now);
      expect(await nodes.a.rateLimiter!.hit([bucket], now)).toEqual([expected]);
      stored = expected.emptyAtMs;
    }
  });

  it('prunes the rows of buckets that are empty again', async () => {
    const nodes = await twoNodes();
    closers.push(() => nodes.close());
    await nodes.a.rateLimiter!.hit([{ key: 'short', requests: 10, windowMs: 1000 }, { key: 'long', requests: 1, windowMs: 60_000 }], T0);
    const sql = postgres(nodes.db.url, { max: 1, onnotice: () => undefined });
    closers.unshift(() => sql.end({ timeout: 1 }));
    expect(await pruneRateLimits(sql, T0 + 100)).toBe(1);
    expect((await sql<{ key: string }[]>`SELECT key FROM teamchat_cluster_rate_limits`).map((row) => row.key)).toEqual(['long']);
  });
});
