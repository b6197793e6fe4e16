/**
 * The API rate limits' counts in the database (core's RateLimiter), so that every node of a
 * cluster counts the same requests: a client spreading its requests over the nodes meets the
 * same limits as one talking to a single node.
 *
 * One statement, so one round trip, per request counted: an upsert of one row per bucket, whose
 * row lock makes concurrent hits on a bucket take turns. The arithmetic is core's
 * `takeFromBucket`, done by PostgreSQL on the same doubles (cost and tolerance computed here, as
 * core computes them), so both limiters give identical answers. The table is UNLOGGED: counts
 * are not worth a WAL write per request, and a database crash forgives every client, as a
 * restart of the in-memory limiter does. Rows of buckets that are empty again are pruned with
 * the event log (member.ts).
 */
import { FIT_TOLERANCE_MS, type RateLimiter, type RateLimitHit } from '@teamchat/core/internal';
import type { Sql } from 'postgres';

export const RATE_LIMITS_TABLE = `CREATE UNLOGGED TABLE IF NOT EXISTS teamchat_cluster_rate_limits (
     key text PRIMARY KEY,
     -- When the bucket is empty again (ms since the epoch).
     empty_at double precision NOT NULL,
     -- The rule it was last counted under: the window and what one request adds (window / requests).
     window_ms double precision NOT NULL,
     cost_ms double precision NOT NULL,
     -- Whether the last request counted in it fitted (what RETURNING reports).
     allowed boolean NOT NULL
   )`;

export function postgresRateLimiter(sql: Sql): RateLimiter {
  return {
    async hit(buckets, nowMs) {
      if (buckets.length === 0) return [];
      const keys = buckets.map((bucket) => bucket.key);
      const windows = buckets.map((bucket) => bucket.windowMs);
      const costs = buckets.map((bucket) => bucket.windowMs / bucket.requests);
      // Rows are locked in key order, so two requests hitting the same buckets cannot deadlock.
      const rows = await sql<{ key: string; empty_at: number; allowed: boolean }[]>`
        INSERT INTO teamchat_cluster_rate_limits AS b (key, empty_at, window_ms, cost_ms, allowed)
        SELECT key, ${nowMs}::float8 + cost, win, cost, true
        FROM unnest(${sql.array(keys)}::text[], ${sql.array(windows)}::float8[], ${sql.array(costs)}::float8[]) AS i(key, win, cost)
        ORDER BY key
        ON CONFLICT (key) DO UPDATE SET
          allowed = greatest(b.empty_at, ${nowMs}::float8) + excluded.cost_ms <= ${nowMs}::float8 + excluded.window_ms + ${FIT_TOLERANCE_MS}::float8,
          empty_at = CASE
            WHEN greatest(b.empty_at, ${nowMs}::float8) + excluded.cost_ms <= ${nowMs}::float8 + excluded.window_ms + ${FIT_TOLERANCE_MS}::float8
            THEN greatest(b.empty_at, ${nowMs}::float8) + excluded.cost_ms
            ELSE b.empty_at
          END,
          window_ms = excluded.window_ms,
          cost_ms = excluded.cost_ms
        RETURNING key, empty_at, allowed`;
      const byKey = new Map<string, RateLimitHit>(rows.map((row) => [row.key, { allowed: row.allowed, emptyAtMs: Number(row.empty_at) }]));
      return keys.map((key) => byKey.get(key)!);
    },
  };
}

/** Deletes the rows of buckets that are empty again (they count nothing). Returns how many went. */
export async function pruneRateLimits(sql: Sql, nowMs: number): Promise<number> {
  const result = await sql`DELETE FROM teamchat_cluster_rate_limits WHERE empty_at <= ${nowMs}::float8`;
  return result.count;
}
