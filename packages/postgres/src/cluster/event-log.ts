/**
 * The shared event log: PublishedEvents as rows, written inside the transaction that made the
 * change, read by every node after a notification carrying the newest ID.
 *
 * Commit order: an event's ID is allocated under EVENTS_LOCK, which its transaction holds until
 * it commits or rolls back. Whoever allocates an ID afterwards waits for that, so once a node
 * sees ID n committed, every smaller ID is committed or never will be: reading "after the last
 * ID delivered" can never skip one (the invariant of core's EventSequencer). The lock is taken
 * just before COMMIT (the staged events are written last), so it is held for the commit only.
 */
import type { EventLogReader, LoggedEvent, PublishedEvent } from '@teamchat/core/internal';
import type { Sql } from 'postgres';
import { EVENTS_LOCK } from './locks.js';

/**
 * Writes `events` inside the transaction open on `tx` (a connection in a transaction) and
 * notifies every node on `channel` (PostgreSQL delivers the notification on commit only).
 * Resolves with their IDs, in order.
 */
export async function writeEvents(tx: Sql, events: readonly PublishedEvent[], channel: string): Promise<number[]> {
  const payloads = events.map((published) => JSON.stringify(published));
  // One round trip: the lock, then the rows and the notification in one statement.
  const [, rows] = await Promise.all([
    tx`SELECT pg_advisory_xact_lock(${EVENTS_LOCK}::bigint)`,
    tx<{ ids: string[] }[]>`
      WITH inserted AS (
        INSERT INTO teamchat_cluster_events (id, payload)
        SELECT nextval('teamchat_cluster_event_ids'), payload
        FROM (SELECT payload FROM unnest(${tx.array(payloads)}::text[]) WITH ORDINALITY AS staged(payload, n) ORDER BY n) AS ordered
        RETURNING id
      )
      SELECT array_agg(id ORDER BY id)::text[] AS ids, pg_notify(${channel}, max(id)::text) AS notified FROM inserted`,
  ]);
  return rows[0]!.ids.map(Number);
}

/** Reads the log for core's EventSequencer. */
export function eventLogReader(sql: Sql): EventLogReader {
  return {
    async after(afterId, limit) {
      const [rows, state] = await Promise.all([
        sql<{ id: string; payload: string }[]>`
          SELECT e.id::text AS id, e.payload FROM teamchat_cluster_events e WHERE e.id > ${afterId} ORDER BY e.id LIMIT ${limit}`,
        sql<{ value: string }[]>`SELECT value::text FROM teamchat_cluster_state WHERE name = 'pruned_through'`,
      ]);
      const events: LoggedEvent[] = rows.map((row) => ({ id: Number(row.id), published: JSON.parse(row.payload) as PublishedEvent }));
      return { events, prunedThroughId: Number(state[0]?.value ?? 0) };
    },
  };
}

/**
 * The newest event ID a snapshot holds, as a statement run as the snapshot's first: pruning
 * may have emptied the table, so the pruned-through mark counts too.
 */
export const SNAPSHOT_EVENT_ID_SQL = `SELECT greatest(
    coalesce((SELECT max(id) FROM teamchat_cluster_events), 0),
    (SELECT value FROM teamchat_cluster_state WHERE name = 'pruned_through'))::text AS id`;

/** The newest committed event ID (0 for an empty log): where a starting node begins. */
export async function newestEventId(sql: Sql): Promise<number> {
  const [row] = await sql<{ id: string }[]>`SELECT greatest(
      coalesce((SELECT max(id) FROM teamchat_cluster_events), 0),
      (SELECT value FROM teamchat_cluster_state WHERE name = 'pruned_through'))::text AS id`;
  return Number(row!.id);
}

/**
 * Deletes events older than `keepMs` (every node has long read them; one that has not was cut
 * off and ends its queues) and records the newest ID deleted. Returns how many went.
 */
export async function pruneEvents(sql: Sql, keepMs: number): Promise<number> {
  return sql.begin(async (tx) => {
    const [row] = await tx<{ count: string; through: string | null }[]>`
      WITH deleted AS (
        DELETE FROM teamchat_cluster_events WHERE created_at < now() - ${keepMs} * interval '1 millisecond' RETURNING id
      )
      SELECT count(*)::text AS count, max(id)::text AS through FROM deleted`;
    if (row?.through) {
      await tx`UPDATE teamchat_cluster_state SET value = greatest(value, ${row.through}::bigint) WHERE name = 'pruned_through'`;
    }
    return Number(row?.count ?? 0);
  });
}
