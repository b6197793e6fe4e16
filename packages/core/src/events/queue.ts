import { err, ok, type Result } from 'neverthrow';
import { type ApiError, badRequest } from '../errors.js';
import type { ApiEvent, QueuedEvent, QueueOptions } from './types.js';

/** A long-poll waiting on a queue: resolved with the events to return. */
export interface Waiter {
  resolve(events: QueuedEvent[]): void;
  /** Clock time (ms) at which a heartbeat is due if nothing else arrived. */
  heartbeatAt: number;
}

/**
 * One client's event queue. IDs start at 0 and increase by one per pushed event. Events stay
 * until the client acknowledges them with `last_event_id`; when the queue is over its bound,
 * the oldest are dropped as if acknowledged, and a client that then asks for them is told so.
 */
export class EventQueue {
  private events: QueuedEvent[] = [];
  private nextId = 0;
  /**
   * The newest ID dropped from the queue. It starts at -1, as in the reference, so that a
   * `last_event_id` this queue never issued is refused even before anything was dropped;
   * accepting it would hide the queue's first events from a client that thinks it saw them.
   */
  private newestPrunedId = -1;
  waiter: Waiter | null = null;

  constructor(
    readonly id: string,
    readonly realmId: number,
    readonly userId: number,
    readonly options: QueueOptions,
    /** Clock time (ms) of the last poll that connected; the idle clock restarts there. */
    public lastConnectedAt: number,
    private readonly maxLength: number,
  ) {}

  get lastEventId(): number {
    return this.nextId - 1;
  }

  push(event: ApiEvent): void {
    this.events.push({ ...event, id: this.nextId++ });
    while (this.events.length > this.maxLength) this.newestPrunedId = this.events.shift()!.id;
    this.wake();
  }

  /** Drops events up to `lastEventId`, with the reference's two consistency errors. */
  acknowledge(lastEventId: number): Result<void, ApiError> {
    if (lastEventId < this.newestPrunedId) {
      return err(badRequest(`An event newer than ${lastEventId} has already been pruned!`));
    }
    while (this.events.length > 0 && this.events[0]!.id <= lastEventId) this.newestPrunedId = this.events.shift()!.id;
    if (lastEventId !== this.newestPrunedId) {
      return err(badRequest(`Event ${lastEventId} was not in this queue`));
    }
    return ok(undefined);
  }

  /** Events not yet acknowledged, oldest first. */
  pending(): QueuedEvent[] {
    return [...this.events];
  }

  get isEmpty(): boolean {
    return this.events.length === 0;
  }

  /** Answers the waiting poll, if any, with what is queued. */
  wake(): void {
    const waiter = this.waiter;
    if (!waiter) return;
    this.waiter = null;
    waiter.resolve(this.pending());
  }
}
