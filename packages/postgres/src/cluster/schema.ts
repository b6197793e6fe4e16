/**
 * The tables of the cluster, kept apart from the storage driver's migrations: they hold no
 * chat data (events for a few minutes, live nodes, housekeeping times), so `teamchat migrate`
 * has nothing to copy, and they are created idempotently by the first node that joins.
 */
import type { Sql } from 'postgres';
import { CLUSTER_SCHEMA_LOCK } from './locks.js';
import { RATE_LIMITS_TABLE } from './rate-limits.js';

const STATEMENTS = [
  // Events in commit order (ids come from the sequence under EVENTS_LOCK, see event-log.ts).
  // The payload is the PublishedEvent's JSON text, stored as written.
  `CREATE SEQUENCE IF NOT EXISTS teamchat_cluster_event_ids`,
  `CREATE TABLE IF NOT EXISTS teamchat_cluster_events (
     id bigint PRIMARY KEY,
     created_at timestamptz NOT NULL DEFAULT now(),
     payload text NOT NULL
   )`,
  `CREATE INDEX IF NOT EXISTS teamchat_cluster_events_created ON teamchat_cluster_events (created_at)`,
  // The newest event ID pruned so far: a node that had not read up to it lost events.
  `CREATE TABLE IF NOT EXISTS teamchat_cluster_state (
     name text PRIMARY KEY,
     value bigint NOT NULL
   )`,
  `INSERT INTO teamchat_cluster_state (name, value) VALUES ('pruned_through', 0) ON CONFLICT (name) DO NOTHING`,
  // Live nodes: where each is reached, and when it last said it was alive.
  `CREATE TABLE IF NOT EXISTS teamchat_cluster_nodes (
     node_id text PRIMARY KEY,
     url text,
     started_at timestamptz NOT NULL DEFAULT now(),
     heartbeat_at timestamptz NOT NULL DEFAULT now()
   )`,
  // When each exclusive job last finished, on whichever node.
  `CREATE TABLE IF NOT EXISTS teamchat_cluster_jobs (
     name text PRIMARY KEY,
     finished_at timestamptz NOT NULL
   )`,
  // The API rate limits' buckets (rate-limits.ts).
  RATE_LIMITS_TABLE,
];

/** Creates the cluster's tables if they are missing; nodes starting together take turns. */
export async function ensureClusterSchema(sql: Sql): Promise<void> {
  await sql.begin(async (tx) => {
    await tx`SELECT pg_advisory_xact_lock(${CLUSTER_SCHEMA_LOCK})`;
    for (const statement of STATEMENTS) await tx.unsafe(statement);
  });
}
