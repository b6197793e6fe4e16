import { err, ok, type Result } from 'neverthrow';
import { type ApiError, badRequest } from '../errors.js';
import { extendedCopy } from '../format/json.js';
import type { DeadlineEntry } from './heap.js';
import type { ApiEvent, QueuedEvent, QueueOptions } from './types.js';

/** A long-poll waiting on a queue: answered with the events to return, or with why it cannot be. */
export interface Waiter {
  resolve(answer: Result<QueuedEvent[], ApiError>): void;
  /** Clock time (ms) at which a heartbeat is due if nothing else arrived. */
  heartbeatAt: number;
  /** Its place among the registry's heartbeat deadlines while it waits. */
  deadline?: DeadlineEntry<EventQueue>;
  /** Set once the registry has scheduled this poll's answer (see `QueueRegistry`'s wake batch). */
  wakeScheduled?: boolean;
}

/** What one queue may hold before it is ended: events not yet acknowledged, and their approximate size. */
export interface QueueBounds {
  maxEvents: number;
  maxBytes: number;
}

/**
 * Counted per queued event besides its JSON size: the array slots and the copy with its `id`
 * that a poll answer builds. It also makes a flood of tiny events reach the byte budget.
 */
export const EVENT_OVERHEAD_BYTES = 64;

/** Acknowledged slots are dropped from the front of the arrays once there are this many. */
const COMPACT_AFTER = 1024;

/**
 * One client's event queue. IDs start at 0 and increase by one per pushed event. Events stay
 * until the client acknowledges them with `last_event_id`. A queue never drops an event it has
 * not been told was seen: an event that would take it past its bounds is refused, and the
 * registry then ends the queue, so that the client re-registers instead of missing events.
 *
 * Memory: a queue holds the events as published (shared with every other queue that got the
 * same variant), not per-queue copies; IDs are implied by position because they are
 * consecutive, and a poll answer builds the `{ ...event, id }` objects it returns. An idle
 * queue allocates no arrays.
 */
export class EventQueue {
  // Unacknowledged events are events[head..], with IDs firstId + head, firstId + head + 1, ...;
  // sizes[i] is what events[i] counts against maxBytes. Both are null while nothing was pushed.
  private events: ApiEvent[] | null = null;
  private sizes: number[] | null = null;
  private head = 0;
  private firstId = 0;
  private heldBytes = 0;
  waiter: Waiter | null = null;

  constructor(
    readonly id: string,
    readonly realmId: number,
    readonly userId: number,
    /** Shared with every queue registered with the same options (see `QueueRegistry.create`). */
    readonly options: QueueOptions,
    /** Clock time (ms) of the last poll that connected; the idle clock restarts there. */
    public lastConnectedAt: number,
    private readonly bounds: QueueBounds,
  ) {}

  get lastEventId(): number {
    return this.firstId + (this.events?.length ?? 0) - 1;
  }

  /** Events held and not yet acknowledged. */
  get length(): number {
    return (this.events?.length ?? 0) - this.head;
  }

  /** Approximate memory the held events take, as counted against the byte budget. */
  get bytes(): number {
    return this.heldBytes;
  }

  get isEmpty(): boolean {
    return this.length === 0;
  }

  /**
   * The newest ID acknowledged: the one before the oldest held. It is -1 at first, as in the
   * reference, so that a `last_event_id` this queue never issued is refused even before
   * anything was acknowledged; accepting it would hide the queue's first events from a client
   * that thinks it saw them.
   */
  private get newestPrunedId(): number {
    return this.firstId + this.head - 1;
  }

  /**
   * Queues `event` (kept as is: events are immutable once published), whose serialized size is
   * about `bytes`. Returns false, queueing nothing, when the event does not fit the queue's
   * bounds. The waiting poll is not answered here: the registry answers it (`wake`) once the
   * current turn is over.
   */
  push(event: ApiEvent, bytes: number): boolean {
    const cost = bytes + EVENT_OVERHEAD_BYTES;
    if (this.length + 1 > this.bounds.maxEvents || this.heldBytes + cost > this.bounds.maxBytes) return false;
    (this.events ??= []).push(event);
    (this.sizes ??= []).push(cost);
    this.heldBytes += cost;
    return true;
  }

  /** Drops events up to `lastEventId`, with the reference's two consistency errors. */
  acknowledge(lastEventId: number): Result<void, ApiError> {
    if (lastEventId < this.newestPrunedId) {
      return err(badRequest(`An event newer than ${lastEventId} has already been pruned!`));
    }
    const events = this.events;
    const sizes = this.sizes;
    if (events && sizes) {
      const end = Math.min(events.length, lastEventId - this.firstId + 1);
      for (; this.head < end; this.head++) this.heldBytes -= sizes[this.head]!;
      this.compact();
    }
    if (lastEventId !== this.newestPrunedId) {
      return err(badRequest(`Event ${lastEventId} was not in this queue`));
    }
    return ok(undefined);
  }

  /**
   * Events not yet acknowledged, oldest first, as the client receives them: a fresh
   * `{ ...event, id }` each, sharing the event's parts. Its text (`toJson`) is the event's own,
   * kept once per event the registry marked, with the ID appended, so a thousand answers to
   * one delivery serialize the event once, not once per queue.
   */
  pending(): QueuedEvent[] {
    const events = this.events;
    const answer: QueuedEvent[] = [];
    if (!events) return answer;
    for (let i = this.head; i < events.length; i++) answer.push(extendedCopy(events[i]!, 'id', this.firstId + i));
    return answer;
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
    this.firstId += this.events?.length ?? 0;
    this.events = null;
    this.sizes = null;
    this.head = 0;
    this.heldBytes = 0;
  }

  // Acknowledging moves `head` only (no shift per event); the dead prefix is cut in one splice.
  private compact(): void {
    const events = this.events!;
    if (this.head === events.length) {
      this.firstId += this.head;
      this.events = null;
      this.sizes = null;
      this.head = 0;
    } else if (this.head >= COMPACT_AFTER && this.head * 2 >= events.length) {
      this.firstId += this.head;
      events.splice(0, this.head);
      this.sizes!.splice(0, this.head);
      this.head = 0;
    }
  }
}
