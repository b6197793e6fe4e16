import { randomUUID } from 'node:crypto';
import { err, ok, type Result } from 'neverthrow';
import type { Clock } from '../clock.js';
import { ApiError } from '../errors.js';
import type { PublishedEvent } from './bus.js';
import { DeadlineHeap } from './heap.js';
import { EventQueue } from './queue.js';
import { eventForQueue } from './rules.js';
import type { QueuedEvent, QueueOptions } from './types.js';

export interface QueueSettings {
  /** A blocked poll gets a heartbeat after this many seconds plus up to `heartbeatJitterSecs`. */
  heartbeatSecs: number;
  heartbeatJitterSecs: number;
  /** How often idle queues are collected. */
  gcIntervalSecs: number;
  /** Events kept per queue before the oldest are dropped. */
  maxQueueLength: number;
  /** Arm a real timer for heartbeats and collection; tests drive `sweep` with a fake clock instead. */
  timers: boolean;
}

export const badEventQueueId = (queueId: string) =>
  new ApiError('BAD_EVENT_QUEUE_ID', `Bad event queue ID: ${queueId}`, { queue_id: queueId });

/**
 * Every event queue of the server, indexed by ID and by user. One timer serves all queues: it
 * is armed for the earliest heartbeat or collection that is due, so holding many waiting polls
 * costs a heap entry each and no timer or loop per poll.
 */
export class QueueRegistry {
  private readonly byId = new Map<string, EventQueue>();
  private readonly byUser = new Map<number, Set<EventQueue>>();
  private readonly heartbeats = new DeadlineHeap<EventQueue>();
  private nextGcAt: number;
  private timer: NodeJS.Timeout | null = null;
  private timerAt = Number.POSITIVE_INFINITY;
  private closed = false;

  constructor(
    private readonly clock: Clock,
    private readonly settings: QueueSettings,
  ) {
    this.nextGcAt = clock.now() + settings.gcIntervalSecs * 1000;
  }

  get size(): number {
    return this.byId.size;
  }

  create(realmId: number, userId: number, options: QueueOptions): EventQueue {
    const queue = new EventQueue(randomUUID(), realmId, userId, options, this.clock.now(), this.settings.maxQueueLength);
    this.byId.set(queue.id, queue);
    let queues = this.byUser.get(userId);
    if (!queues) this.byUser.set(userId, (queues = new Set()));
    queues.add(queue);
    this.arm();
    return queue;
  }

  /** The user's queue; unknown, expired and other users' queues look the same. */
  get(queueId: string, userId: number): Result<EventQueue, ApiError> {
    const queue = this.byId.get(queueId);
    return queue && queue.userId === userId ? ok(queue) : err(badEventQueueId(queueId));
  }

  /** Whether the queue is still registered and the registry has not shut down. */
  isLive(queue: EventQueue): boolean {
    return !this.closed && this.byId.get(queue.id) === queue;
  }

  delete(queue: EventQueue): void {
    queue.wake();
    this.byId.delete(queue.id);
    const queues = this.byUser.get(queue.userId);
    queues?.delete(queue);
    if (queues?.size === 0) this.byUser.delete(queue.userId);
  }

  /** Whether a client of the user is receiving message events (the reference's receiver_is_off_zulip, negated). */
  receivesMessages(userId: number): boolean {
    for (const queue of this.byUser.get(userId) ?? []) {
      if (!queue.options.eventTypes || queue.options.eventTypes.has('message')) return true;
    }
    return false;
  }

  /** Drops every queue of a user (a deactivated user's clients must re-register, and cannot). */
  deleteUserQueues(userId: number): void {
    for (const queue of [...(this.byUser.get(userId) ?? [])]) this.delete(queue);
  }

  /** Queues each published event into every queue of its users that takes it. */
  deliver(published: PublishedEvent): void {
    for (const userId of new Set(published.userIds)) {
      for (const queue of this.byUser.get(userId) ?? []) {
        if (queue.realmId !== published.realmId) continue;
        const shaped = published.shape ? published.shape(queue.options, queue.id) : published.event;
        const event = shaped && eventForQueue(queue, shaped);
        if (event) queue.push(event);
      }
    }
  }

  /**
   * Acknowledges up to `lastEventId`, then answers at once (queued events, or none when
   * `dontBlock`) or waits until an event, a heartbeat, a newer poll of the same queue, or shutdown.
   */
  async poll(queue: EventQueue, lastEventId: number | undefined, dontBlock: boolean): Promise<Result<QueuedEvent[], ApiError>> {
    if (lastEventId !== undefined) {
      const acknowledged = queue.acknowledge(lastEventId);
      if (acknowledged.isErr()) return err(acknowledged.error);
    }
    queue.lastConnectedAt = this.clock.now();
    // A newer poll of the same queue answers the older one, whether or not the newer one waits.
    queue.wake();
    if (!queue.isEmpty || dontBlock || this.closed) return ok(queue.pending());
    const jitter = Math.random() * this.settings.heartbeatJitterSecs;
    const heartbeatAt = this.clock.now() + (this.settings.heartbeatSecs + jitter) * 1000;
    const events = await new Promise<QueuedEvent[]>((resolve) => {
      queue.waiter = {
        heartbeatAt,
        resolve: (answered) => {
          // The idle clock restarts when the poll is answered, not when its continuation runs:
          // a sweep that answers it with a heartbeat must not collect the queue in the same pass.
          queue.lastConnectedAt = this.clock.now();
          resolve(answered);
        },
      };
      this.heartbeats.push(heartbeatAt, queue);
      this.arm();
    });
    return ok(events);
  }

  /** Sends due heartbeats and collects idle queues. The timer calls it; tests call it with a fake clock. */
  sweep(now = this.clock.now()): void {
    for (const queue of this.heartbeats.popDue(now)) {
      const waiter = queue.waiter;
      // Entries of answered polls are stale: only the current waiter's deadline counts.
      if (waiter && waiter.heartbeatAt <= now && this.byId.has(queue.id)) queue.push({ type: 'heartbeat' });
    }
    if (now >= this.nextGcAt) {
      this.collect(now);
      this.nextGcAt = now + this.settings.gcIntervalSecs * 1000;
    }
    this.arm();
  }

  /** Drops queues that no poll is holding and that have been idle past their timeout. */
  collect(now = this.clock.now()): void {
    for (const queue of this.byId.values()) {
      const idleMs = now - queue.lastConnectedAt;
      if (!queue.waiter && idleMs >= queue.options.idleTimeoutSecs * 1000) this.delete(queue);
    }
  }

  /** Answers every waiting poll and stops the timer. Later polls answer at once. */
  shutdown(): void {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    for (const queue of this.byId.values()) queue.wake();
  }

  private arm(): void {
    if (!this.settings.timers || this.closed) return;
    const next = Math.min(this.heartbeats.peek() ?? Number.POSITIVE_INFINITY, this.byId.size > 0 ? this.nextGcAt : Number.POSITIVE_INFINITY);
    if (next === Number.POSITIVE_INFINITY || next >= this.timerAt) return;
    if (this.timer) clearTimeout(this.timer);
    this.timerAt = next;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.timerAt = Number.POSITIVE_INFINITY;
      this.sweep();
    }, Math.max(0, next - this.clock.now()));
    this.timer.unref();
  }
}
