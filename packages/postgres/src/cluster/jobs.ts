/**
 * Exclusive housekeeping: a session-level advisory lock per job name, held on a reserved
 * connection while the job runs. A node that dies mid-run loses its session, and with it the
 * lock; the last finish time lives in a table, so the interval holds across nodes.
 */
import type { JobLock } from '@teamchat/core/internal';
import type { Sql } from 'postgres';

/** `keyPrefix` scopes the lock keys to one cluster (ClusterNames.jobs). */
export function postgresJobLock(sql: Sql, keyPrefix: string): JobLock {
  return {
    async runExclusive(name, intervalMs, job) {
      const key = `${keyPrefix}${name}`;
      const session = await sql.reserve();
      try {
        const [lock] = await session<{ locked: boolean }[]>`SELECT pg_try_advisory_lock(hashtextextended(${key}, 0)) AS locked`;
        if (!lock?.locked) return false;
        try {
          if (intervalMs > 0) {
            const [recent] = await session<{ name: string }[]>`
              SELECT name FROM teamchat_cluster_jobs
              WHERE name = ${name} AND finished_at > now() - ${intervalMs} * interval '1 millisecond'`;
            if (recent) return false;
          }
          await job();
          await session`INSERT INTO teamchat_cluster_jobs (name, finished_at) VALUES (${name}, now())
                        ON CONFLICT (name) DO UPDATE SET finished_at = excluded.finished_at`;
          return true;
        } finally {
          await session`SELECT pg_advisory_unlock(hashtextextended(${key}, 0))`;
        }
      } finally {
        session.release();
      }
    },
  };
}
