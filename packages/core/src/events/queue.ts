import { err, ok, type Result } from 'neverthrow';
import { type ApiError, badRequest } from '../errors.js';
import type { ApiEvent, QueuedEvent, QueueOptions } from './types.js';

/** A long-poll waiting on a queue: answered with the events to return, or with why it cannot be. */
export interface Waiter {
  resolve(answer: Result<QueuedEvent[], ApiError>): void;
  /** Clock time (ms) at which a heartbeat is due if nothing else arrived. */
  heartbeatAt: number;
}

/** What one queue may hold before it is ended: events not yet acknowledged, and their approximate size. */
export interface QueueBounds {
  maxEvents: number;
  maxBytes: number;
}

/**
 * Counted per queued event besides its JSON size: the copy with its `id`, the array slot and the
 * size record. It also makes a flood of tiny events reach the byte budget.
 */
export const EVENT_OVERHEAD_BYTES = 64;

/** Acknowledged slots are dropped from the front of the arrays once there are this many. */
const COMPACT_AFTER = 1024;

/**
 * One client's event queue. IDs start at 0 and increase by one per pushed event. Events stay
 * until the client acknowledges them with `last_event_id`. A queue never drops an event it has
 * not been told was seen: an event that would take it past its bounds is refused, and the
 * registry then ends the queue, so that the client re-registers instead of missing events.
 */
export class EventQueue {
  // Unacknowledged events are events[head..]; sizes[i] is what events[i] counts against maxBytes.
  private events: QueuedEvent[] = [];
  private sizes: number[] = [];
  private head = 0;
  private heldBytes = 0;
  private nextId = 0;
  /**
   * The newest ID acknowledged. It starts at -1, as in the reference, so that a `last_event_id`
   * this queue never issued is refused even before anything was acknowledged; accepting it
   * would hide the queue's first events from a client that thinks it saw them.
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
    private readonly bounds: QueueBounds,
  ) {}

  get lastEventId(): number {
    return this.nextId - 1;
  }

  /** Events held and not yet acknowledged. */
  get length(): number {
    return this.events.length - this.head;
  }

  /** Approximate memory the held events take, as counted against the byte budget. */
  get bytes(): number {
    return this.heldBytes;
  }

  get isEmpty(): boolean {
    return this.length === 0;
  }

  /**
   * Queues `event`, whose serialized size is about `bytes`, and answers the waiting poll. Returns
   * false, queueing nothing, when the event does not fit the queue's bounds.
   */
  push(event: ApiEvent, bytes: number): boolean {
    const cost = bytes + EVENT_OVERHEAD_BYTES;
    if (this.length + 1 > this.bounds.maxEvents || this.heldBytes + cost > this.bounds.maxBytes) return false;
    this.events.push({ ...event, id: this.nextId++ });
    this.sizes.push(cost);
    this.heldBytes += cost;
    this.wake();
    return true;
  }

  /** Drops events up to `lastEventId`, with the reference's two consistency errors. */
  acknowledge(lastEventId: number): Result<void, ApiError> {
    if (lastEventId < this.newestPrunedId) {
      return err(badRequest(`An event newer than ${lastEventId} has already been pruned!`));
    }
    while (this.head < this.events.length && this.events[this.head]!.id <= lastEventId) {
      this.newestPrunedId = this.events[this.head]!.id;
      this.heldBytes -= this.sizes[this.head]!;
      this.head++;
    }
    this.compact();
    if (lastEventId !== this.newestPrunedId) {
      return err(badRequest(`Event ${lastEventId} was not in this queue`));
    }
    return ok(undefined);
  }

  /** Events not yet acknowledged, oldest first. */
  pending(): QueuedEvent[] {
    return this.events.slice(this.head);
  }

  /** Answers the waiting poll, if any, with what is queued. */
  wake(): void {
    const waiter = this.waiter;
    if (!waiter) return;
    this.waiter = null;
    waiter.resolve(ok(this.pending()));
  }

  /** Answers the waiting poll, if any, with an error (the queue was ended under it). */
  fail(error: ApiError): void {
    const waiter = this.waiter;
    if (!waiter) return;
    this.waiter = null;
    waiter.resolve(err(error));
  }

  /** Lets go of every held event: the queue was ended and only its ID is still referenced. */
  release(): void {
    this.events = [];
    this.sizes = [];
    this.head = 0;
    this.heldBytes = 0;
  }

  // Acknowledging moves `head` only (no shift per event); the dead prefix is cut in one splice.
  private compact(): void {
    if (this.head === this.events.length) {
      this.events = [];
      this.sizes = [];
      this.head = 0;
    } else if (this.head >= COMPACT_AFTER && this.head * 2 >= this.events.length) {
      this.events.splice(0, this.head);
      this.sizes.splice(0, this.head);
      this.head = 0;
    }
  }
}
