import type { Tx } from '../storage/types.js';
import type { PublishedEvent } from './bus.js';

/**
 * How published events reach the event queues of every process sharing one database. Without
 * one (a single process), events go straight from the after-commit step to the local bus.
 *
 * Delivery is at least once to each process and exactly once into each queue: every durable
 * event gets an ID in commit order, and each process delivers IDs above the last it delivered,
 * in order (events/sequencer.ts).
 */
export interface EventTransport {
  /**
   * Records `published` with the write transaction `tx`, inside it: committed together with the
   * change (so a committed change always has its events), never if it rolls back. Every process,
   * this one included, delivers it after the commit; this one does so in the commit's
   * after-commit step when nothing is missing before it. Called synchronously by
   * `publishOnCommit`; the transport's driver writes the staged events before COMMIT.
   */
  stage(tx: Tx, published: PublishedEvent): void;
  /**
   * Publishes an event no transaction produced (typing, presence, video calls): delivered here
   * at once and to the other processes as soon as they can take it, without being recorded.
   * Such events are transient: a process that is down or disconnected does not get them later.
   */
  broadcast(published: PublishedEvent): void;
  /**
   * Where this process's deliveries go: the context's local bus, with the event's ID in the
   * shared log (none for transient events). `lost` is called when events
   * this process never delivered can no longer be read (it was cut off longer than the log keeps
   * events): its queues are then incomplete and are ended. `createContext` calls it once.
   */
  connect(deliver: (published: PublishedEvent, logId?: number) => void, lost: () => void): void;
  /**
   * The ID of the newest event in the read snapshot whose callback is taking its first step
   * now, or null when there is none or it is unknown. A queue registered in that step takes
   * exactly the events after it (QueueRegistry.create), although events of other processes
   * reach this one on their own schedule, before or after the snapshot's.
   */
  snapshotEventId?(): number | null;
}
