import type { PublishedEvent } from './bus.js';
import type { EventQueue } from './queue.js';

/** One published event on its way to the queues that were registered when it was published. */
export interface Delivery {
  readonly published: PublishedEvent;
  readonly targets: EventQueue[];
  /** Index of the next target to deliver to. */
  next: number;
  /** The event's approximate size, worked out by the first queue that takes it. */
  bytes?: number;
  /** The objects of its shaped variants last marked `serializeOnce` (see QueueRegistry). */
  markedParts?: object[];
}

/**
 * Delivers published events to their queues in publication order, at most `batchSize` queues
 * per turn of the event loop, so that an event for thousands of queues does not hold up other
 * clients' requests until every copy is queued. A small fan-out with nothing ahead of it is
 * delivered at once, inside the publishing call.
 *
 * Consistency with register: an event's targets are the queues that existed when it was
 * published, which is inside its transaction's after-commit step. A queue registered later
 * took its snapshot after that commit, so it already has the change and must not get the
 * event; a queue registered earlier gets it even if the delivery finishes turns later. Events
 * reach each queue in publication order, because the backlog is worked through first in,
 * first out.
 */
export class Fanout {
  private readonly backlog: Delivery[] = [];
  private running = false;
  private scheduled = false;
  private idleWaiters: (() => void)[] = [];

  constructor(
    private readonly batchSize: number,
    /** Delivers one event to one queue; the registry skips queues ended in the meantime. */
    private readonly deliverTo: (queue: EventQueue, delivery: Delivery) => void,
  ) {}

  /** Queue deliveries still to be made, over every event in the backlog. */
  get backlogSize(): number {
    return this.backlog.reduce((sum, delivery) => sum + delivery.targets.length - delivery.next, 0);
  }

  enqueue(published: PublishedEvent, targets: EventQueue[]): void {
    if (targets.length === 0) return;
    this.backlog.push({ published, targets, next: 0 });
    // A publish from inside a delivery, or behind a backlog, waits its turn.
    if (!this.running && !this.scheduled) this.run();
  }

  /** Resolves once every event published so far has reached its queues. */
  drained(): Promise<void> {
    if (this.backlog.length === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /** Drops the backlog (the registry is shutting down) and answers `drained`. */
  clear(): void {
    this.backlog.length = 0;
    this.settle();
  }

  private readonly run = (): void => {
    this.scheduled = false;
    this.running = true;
    try {
      let budget = this.batchSize;
      while (budget > 0 && this.backlog.length > 0) {
        const delivery = this.backlog[0]!;
        const end = Math.min(delivery.targets.length, delivery.next + budget);
        budget -= end - delivery.next;
        while (delivery.next < end) this.deliverTo(delivery.targets[delivery.next++]!, delivery);
        if (delivery.next === delivery.targets.length) this.backlog.shift();
      }
    } finally {
      this.running = false;
    }
    if (this.backlog.length > 0) {
      this.scheduled = true;
      setImmediate(this.run);
    } else {
      this.settle();
    }
  };

  private settle(): void {
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const resolve of waiters) resolve();
  }
}
