/**
 * Core's EventTransport over PostgreSQL: durable events are rows written with their
 * transaction (event-log.ts), announced by a NOTIFY carrying the newest ID, and read by every
 * node; transient events (typing, presence) travel in the NOTIFY payload itself.
 */
import { EventSequencer, type EventTransport, type Logger, type PublishedEvent, type Tx } from '@teamchat/core/internal';
import type { Sql } from 'postgres';
import { eventLogReader, newestEventId, SNAPSHOT_EVENT_ID_SQL, writeEvents } from './event-log.js';
import type { ClusterNames } from './locks.js';

/**
 * PostgreSQL refuses NOTIFY payloads of 8,000 bytes or more; a transient event larger than
 * this (a presence event for a huge realm) is written to the log like a durable one instead.
 */
const MAX_NOTIFY_PAYLOAD = 7900;

/** How often a node reads the log without being told to: a safety net for lost notifications. */
const CATCH_UP_INTERVAL_MS = 2000;

export interface PostgresEventTransport extends EventTransport {
  /**
   * For the storage driver: writes the events staged in the write transaction `tx` through its
   * connection `sqlTx`. The driver calls it after the transaction's callback returned Ok,
   * right before COMMIT; it may throw, and the transaction then rolls back.
   */
  writeStaged(tx: Tx, sqlTx: Sql): Promise<void>;
  /**
   * For the storage driver: runs the first step of a read callback (`fn`, called synchronously)
   * whose snapshot holds the log up to `eventId` (the driver reads `max(id)` of
   * teamchat_cluster_events in the snapshot), so that a queue registered there takes exactly
   * the events after it.
   */
  runInSnapshot<T>(eventId: number, fn: () => T): T;
  /** The statement giving that ID (one row, column `id`), for the driver to take its snapshot with. */
  readonly snapshotStatement: string;
  /** Resolves once the reads of the log in progress are done (tests). */
  idle(): Promise<void>;
  close(): Promise<void>;
}

interface Staged {
  events: PublishedEvent[];
  /** Their IDs, once written. */
  ids: number[] | null;
}

export async function createPostgresEventTransport(sql: Sql, names: ClusterNames, nodeId: string, logger: Logger): Promise<PostgresEventTransport> {
  const staged = new WeakMap<Tx, Staged>();
  let deliver: (published: PublishedEvent, logId?: number) => void = () => undefined;
  let snapshotId: number | null = null;
  let lost: () => void = () => undefined;
  const sequencer = new EventSequencer(eventLogReader(sql), (published, id) => deliver(published, id), logger, await newestEventId(sql), () => lost());

  const listeners = await Promise.all([
    // Every (re)connection of the listening session reads what it may have missed meanwhile.
    sql.listen(names.events, (payload) => sequencer.notified(Number(payload)), () => void sequencer.catchUp()),
    sql.listen(names.transient, (payload) => {
      const message = JSON.parse(payload) as { n: string; p: PublishedEvent };
      if (message.n !== nodeId) deliver(message.p);
    }),
  ]);
  const timer = setInterval(() => void sequencer.catchUp(), CATCH_UP_INTERVAL_MS);
  timer.unref();

  const committed = (entry: Staged) => {
    if (entry.ids === null) {
      // The driver committed without writing the staged events: no other node will see them.
      logger.error({ events: entry.events.length }, 'the storage driver committed a transaction without writing its events to the cluster log');
      for (const published of entry.events) deliver(published);
      return;
    }
    sequencer.committed(entry.ids.map((id, i) => ({ id, published: entry.events[i]! })));
  };

  return {
    stage(tx, published) {
      let entry = staged.get(tx);
      if (!entry) {
        entry = { events: [], ids: null };
        staged.set(tx, entry);
        const registered = entry;
        tx.afterCommit(() => committed(registered));
      }
      entry.events.push(published);
    },
    async writeStaged(tx, sqlTx) {
      const entry = staged.get(tx);
      if (!entry || entry.events.length === 0) return;
      entry.ids = await writeEvents(sqlTx, entry.events, names.events);
    },
    broadcast(published) {
      const payload = JSON.stringify({ n: nodeId, p: published });
      const report = (error: unknown) => logger.error({ err: error }, 'broadcasting a transient event to the cluster failed');
      if (payload.length > MAX_NOTIFY_PAYLOAD) {
        // Too large for a notification: through the log, which delivers it here too.
        sql.begin((tx) => writeEvents(tx as unknown as Sql, [published], names.events)).then((ids) => sequencer.notified(ids[ids.length - 1]!), report);
        return;
      }
      deliver(published);
      sql.notify(names.transient, payload).catch(report);
    },
    connect(onEvent, onLost) {
      deliver = onEvent;
      lost = onLost;
    },
    snapshotEventId: () => snapshotId,
    snapshotStatement: SNAPSHOT_EVENT_ID_SQL,
    runInSnapshot(eventId, fn) {
      const outer = snapshotId;
      snapshotId = eventId;
      try {
        return fn();
      } finally {
        snapshotId = outer;
      }
    },
    idle: () => sequencer.idle(),
    async close() {
      clearInterval(timer);
      sequencer.stop();
      await Promise.all(listeners.map((listener) => listener.unlisten()));
    },
  };
}
