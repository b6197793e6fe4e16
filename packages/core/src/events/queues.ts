import { randomUUID } from 'node:crypto';
import { err, ok, type Result } from 'neverthrow';
import type { Clock } from '../clock.js';
import { ApiError } from '../errors.js';
import type { Logger } from '../logger.js';
import { serializeOnce } from '../format/json.js';
import { queueIdOf } from '../cluster/queue-owner.js';
import type { PublishedEvent } from './bus.js';
import { type Delivery, Fanout } from './fanout.js';
import { DeadlineHeap } from './heap.js';
import { EventQueue, type QueueBounds, type Waiter } from './queue.js';
import { QueueOptionsTable } from './queue-options.js';
import { eventForQueue } from './rules.js';
import type { ApiEvent, QueuedEvent, QueueOptions } from './types.js';

export interface QueueSettings {
  /** The node this process is in a cluster: queue IDs start with it (cluster/queue-owner.ts). */
  nodeId?: string;
  /** A blocked poll gets a heartbeat after this many seconds plus up to `heartbeatJitterSecs`. */
  heartbeatSecs: number;
  heartbeatJitterSecs: number;
  /** How often idle queues are collected. */
  gcIntervalSecs: number;
  /** Unacknowledged events a queue may hold; one more ends the queue. */
  maxQueueLength: number;
  /** Approximate bytes of unacknowledged events a queue may hold; more ends the queue. */
  maxQueueBytes: number;
  /** Queues one user may have; registering one more ends their least recently used queue. */
  maxQueuesPerUser: number;
  /** Queues an event is delivered to per turn of the event loop (see `Fanout`). */
  fanoutBatchSize: number;
  /** Arm a real timer for heartbeats and collection; tests drive `sweep` with a fake clock instead. */
  timers: boolean;
  /** Where a failed delivery is reported (the queue is ended, so its client re-registers). */
  logger: Logger;
  /** In a cluster: the newest shared-log event ID of the snapshot being taken now (EventTransport.snapshotEventId). */
  snapshotEventId?: () => number | null;
}

/** Events of the shared log kept for queues registered on a snapshot older than them (see `create`). */
const RECENT_LOGGED_KEPT = 1024;

/** What the registry holds, for bounds checks and monitoring. */
export interface QueueStats {
  queues: number;
  /** Unacknowledged events over every queue. */
  events: number;
  /** Their approximate size, as counted against each queue's byte budget. */
  bytes: number;
}

/** The error of an unknown, expired, ended or other user's queue: the client must re-register. */
export const badEventQueueId = (queueId: string) =>
  new ApiError('BAD_EVENT_QUEUE_ID', `Bad event queue ID: ${queueId}`, { queue_id: queueId });

/** The size an event is counted for in every queue that takes it: its JSON length. */
function approximateBytes(event: object): number {
  return JSON.stringify(event)?.length ?? 0;
}

/**
 * A fresh random queue ID: a UUID, after the owning node's ID in a cluster. Node builds
 * randomUUID's text by concatenation, a tree of string pieces of about 500 bytes that every
 * idle queue would keep; the flat copy takes 56.
 */
function newQueueId(nodeId: string | undefined): string {
  return Buffer.from(queueIdOf(nodeId, randomUUID()), 'latin1').toString('latin1');
}

/** Every heartbeat is this one immutable event; queues add its ID when answering. */
const HEARTBEAT: ApiEvent = serializeOnce(Object.freeze({ type: 'heartbeat' }));

/** Objects remembered per delivery as already marked; a published event has a few variants of a few parts at most. */
const MARKED_PARTS_KEPT = 16;

/**
 * Marks the event and the objects it holds (a formatted message, a flags list) to be serialized
 * once: events are immutable once published, and queues that got the same variant share the
 * event and these objects, so a thousand poll answers carry one serialization of the event
 * (each answer appends its queue's ID, see `EventQueue.pending`), and other answers that hold
 * its parts reuse theirs (see format/json.ts). A variant this delivery already marked for an
 * earlier queue is recognised by identity and skipped, its parts with it.
 */
function markSharedParts(event: ApiEvent, delivery: Delivery): void {
  const marked = (delivery.markedParts ??= []);
  if (marked.includes(event)) return;
  const mark = (value: object) => {
    serializeOnce(value);
    if (marked.length === MARKED_PARTS_KEPT) marked.shift();
    marked.push(value);
  };
  mark(event);
  for (const value of Object.values(event)) {
    if (value !== null && typeof value === 'object' && !marked.includes(value)) mark(value);
  }
}

/**
 * Every event queue of the server, indexed by ID and by user. One timer serves all queues: it
 * is armed for the earliest heartbeat or collection that is due, so holding many waiting polls
 * costs a heap entry each and no timer or loop per poll.
 *
 * Bounds: a user has at most `maxQueuesPerUser` queues, and a queue holds at most
 * `maxQueueLength` events and about `maxQueueBytes` of them. A queue over a bound is ended
 * rather than trimmed: its next poll (or the one waiting) gets BAD_EVENT_QUEUE_ID, and the
 * client re-registers with a fresh snapshot instead of carrying on with a gap it cannot see.
 *
 * Answering polls: an event reaches its queues synchronously at publish (register's snapshot
 * consistency relies on it, see `Fanout`), and a poll arriving after that gets it at once. The
 * polls already waiting are answered after the current turn, all those of one delivery batch in
 * one `setImmediate`: publish runs inside the sender's after-commit step, and answering a
 * thousand polls there would put their continuations ahead of the sender's own answer.
 */
export class QueueRegistry {
  private readonly byId = new Map<string, EventQueue>();
  private readonly byUser = new Map<number, Set<EventQueue>>();
  /** Queues registered with all_public_streams, per realm: the audience of `allPublicStreamsQueues`. */
  private readonly allPublicStreams = new Map<number, Set<EventQueue>>();
  /**
   * Users who may no longer read public channels (turned guest after registering such a queue;
   * register refuses the option to guests): their queues are skipped, as the realm's guests were.
   */
  private readonly withoutPublicChannels = new Set<number>();
  private readonly heartbeats = new DeadlineHeap<EventQueue>();
  private readonly options = new QueueOptionsTable();
  private readonly bounds: QueueBounds;
  private readonly fanout: Fanout;
  /** In a cluster: the newest shared-log event ID each queue's snapshot holds; it takes later ones only. */
  private readonly snapshotOf = new WeakMap<EventQueue, number>();
  /** In a cluster: the last events delivered from the shared log, oldest first. */
  private readonly recentLogged: { logId: number; published: PublishedEvent }[] = [];
  /** Queues with a waiting poll that got events this turn; answered by `answerWoken`. */
  private woken: EventQueue[] = [];
  private nextGcAt: number;
  private timer: NodeJS.Timeout | null = null;
  private timerAt = Number.POSITIVE_INFINITY;
  private closed = false;

  constructor(
    private readonly clock: Clock,
    private readonly settings: QueueSettings,
  ) {
    this.nextGcAt = clock.now() + settings.gcIntervalSecs * 1000;
    this.bounds = { maxEvents: settings.maxQueueLength, maxBytes: settings.maxQueueBytes };
    this.fanout = new Fanout(Math.max(1, settings.fanoutBatchSize), (queue, delivery) => this.deliverTo(queue, delivery));
  }

  get size(): number {
    return this.byId.size;
  }

  /** Counts queues, held events and their approximate bytes (walks every queue). */
  stats(): QueueStats {
    let events = 0;
    let bytes = 0;
    for (const queue of this.byId.values()) {
      events += queue.length;
      bytes += queue.bytes;
    }
    return { queues: this.byId.size, events, bytes };
  }

  /** Queues with a long-poll waiting on them now (walks every queue: for a metrics scrape, not a hot path). */
  waitingPolls(): number {
    let waiting = 0;
    for (const queue of this.byId.values()) if (queue.waiter) waiting++;
    return waiting;
  }

  /** The user's queues, in registration order. */
  userQueues(userId: number): EventQueue[] {
    return [...(this.byUser.get(userId) ?? [])];
  }

  /** Distinct option sets the registered queues share. */
  get distinctOptions(): number {
    return this.options.size;
  }

  /**
   * Registers a queue; a user already at the cap loses their least recently used queue first.
   * The queue holds a shared object equal to `options`, which must not be changed afterwards.
   */
  create(realmId: number, userId: number, options: QueueOptions): EventQueue {
    let queues = this.byUser.get(userId);
    while (queues && queues.size >= Math.max(1, this.settings.maxQueuesPerUser)) {
      this.end(leastRecentlyUsed(queues));
      queues = this.byUser.get(userId);
    }
    const queue = new EventQueue(newQueueId(this.settings.nodeId), realmId, userId, this.options.acquire(options), this.clock.now(), this.bounds);
    this.byId.set(queue.id, queue);
    if (!queues) this.byUser.set(userId, (queues = new Set()));
    queues.add(queue);
    if (queue.options.allPublicStreams) {
      let inRealm = this.allPublicStreams.get(realmId);
      if (!inRealm) this.allPublicStreams.set(realmId, (inRealm = new Set()));
      inRealm.add(queue);
    }
    this.arm();
    const snapshotId = this.settings.snapshotEventId?.() ?? null;
    if (snapshotId !== null) this.catchUpNewQueue(queue, snapshotId);
    return queue;
  }

  /** The user's queue; unknown, expired, ended and other users' queues look the same. */
  get(queueId: string, userId: number): Result<EventQueue, ApiError> {
    const queue = this.byId.get(queueId);
    return queue && queue.userId === userId ? ok(queue) : err(badEventQueueId(queueId));
  }

  /** Whether `shutdown` was called. */
  get isShutDown(): boolean {
    return this.closed;
  }

  /** Whether the queue is still registered and the registry has not shut down. */
  isLive(queue: EventQueue): boolean {
    return !this.closed && this.byId.get(queue.id) === queue;
  }

  /** Discards a queue at its client's request: the waiting poll is answered with what is queued. */
  delete(queue: EventQueue): void {
    queue.wake();
    this.unregister(queue);
  }

  /**
   * Ends a queue the client did not ask to end (evicted, over its bounds): the waiting poll, and
   * every later one, gets BAD_EVENT_QUEUE_ID, so that the client re-registers.
   */
  end(queue: EventQueue): void {
    queue.fail(badEventQueueId(queue.id));
    this.unregister(queue);
  }

  /** Ends every queue (events were lost before reaching them, see `EventTransport.connect`). */
  endAll(): void {
    for (const queue of [...this.byId.values()]) this.end(queue);
  }

  /** Whether a client of the user is receiving message events (the reference's receiver_is_off_zulip, negated). */
  receivesMessages(userId: number): boolean {
    for (const queue of this.byUser.get(userId) ?? []) {
      if (!queue.options.eventTypes || queue.options.eventTypes.has('message')) return true;
    }
    return false;
  }

  /**
   * Whether the user's all_public_streams queues get public channels' messages: a role change
   * to or from guest says so, after its commit.
   */
  setReadsPublicChannels(userId: number, reads: boolean): void {
    if (reads) this.withoutPublicChannels.delete(userId);
    else this.withoutPublicChannels.add(userId);
  }

  /** Drops every queue of a user (a deactivated user's clients must re-register, and cannot). */
  deleteUserQueues(userId: number): void {
    for (const queue of this.userQueues(userId)) this.delete(queue);
  }

  /**
   * Queues a published event into every queue of its users that takes it. The queues are
   * chosen now; the event reaches them now or, for a large fan-out, over the next turns
   * (`Fanout`); their waiting polls are answered after the turn that queued it.
   */
  deliver(published: PublishedEvent, logId?: number): void {
    if (this.closed) return;
    if (logId !== undefined) {
      this.recentLogged.push({ logId, published });
      if (this.recentLogged.length > RECENT_LOGGED_KEPT) this.recentLogged.shift();
    }
    const targets: EventQueue[] = [];
    const userIds = new Set(published.userIds);
    // A queue whose snapshot already holds this event's change does not take it.
    const seen = (queue: EventQueue) => logId !== undefined && (this.snapshotOf.get(queue) ?? -1) >= logId;
    for (const userId of userIds) {
      for (const queue of this.byUser.get(userId) ?? []) {
        if (queue.realmId === published.realmId && !seen(queue)) targets.push(queue);
      }
    }
    const publicAudience = published.allPublicStreamsQueues && this.allPublicStreams.get(published.realmId);
    if (publicAudience) {
      const except = new Set(published.allPublicStreamsQueues!.exceptUserIds);
      for (const queue of publicAudience) {
        const userId = queue.userId;
        if (!except.has(userId) && !userIds.has(userId) && !this.withoutPublicChannels.has(userId) && !seen(queue)) targets.push(queue);
      }
    }
    this.fanout.enqueue(published, targets);
  }

  /**
   * A queue registered in a cluster on a snapshot holding the shared log up to `snapshotId`:
   * events up to it are skipped when this process delivers them later, and those after it
   * that this process delivered already (another process's commit, read before the snapshot's
   * reply came) are queued now, in order. A snapshot older than what is kept ends the queue.
   */
  private catchUpNewQueue(queue: EventQueue, snapshotId: number): void {
    this.snapshotOf.set(queue, snapshotId);
    const recent = this.recentLogged;
    const newest = recent[recent.length - 1]?.logId ?? -1;
    if (newest <= snapshotId) return;
    if (recent[0]!.logId > snapshotId + 1 && recent.length === RECENT_LOGGED_KEPT) {
      this.end(queue);
      return;
    }
    for (const { logId, published } of recent) {
      if (logId <= snapshotId || published.realmId !== queue.realmId || !published.userIds.includes(queue.userId)) continue;
      this.deliverTo(queue, { published, targets: [], next: 0 });
    }
  }

  /** Resolves once every event published so far is in its queues (or its queues have ended). */
  delivered(): Promise<void> {
    return this.fanout.drained();
  }

  /**
   * Acknowledges up to `lastEventId`, then answers at once (queued events, or none when
   * `dontBlock`) or waits until an event, a heartbeat, a newer poll of the same queue, the
   * queue's end, or shutdown.
   */
  async poll(queue: EventQueue, lastEventId: number | undefined, dontBlock: boolean): Promise<Result<QueuedEvent[], ApiError>> {
    if (!this.closed && this.byId.get(queue.id) !== queue) return err(badEventQueueId(queue.id));
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
    return new Promise<Result<QueuedEvent[], ApiError>>((resolve) => {
      const waiter: Waiter = {
        heartbeatAt,
        resolve: (answer) => {
          // The idle clock restarts when the poll is answered, not when its continuation runs:
          // a sweep that answers it with a heartbeat must not collect the queue in the same pass.
          queue.lastConnectedAt = this.clock.now();
          if (waiter.deadline) this.heartbeats.remove(waiter.deadline);
          resolve(answer);
        },
      };
      waiter.deadline = this.heartbeats.push(heartbeatAt, queue);
      queue.waiter = waiter;
      this.arm();
    });
  }

  /** Sends due heartbeats and collects idle queues. The timer calls it; tests call it with a fake clock. */
  sweep(now = this.clock.now()): void {
    for (const queue of this.heartbeats.popDue(now)) {
      // Answered polls take their deadline out of the heap; this check is only a safeguard.
      const waiter = queue.waiter;
      if (!waiter || waiter.heartbeatAt > now || !this.byId.has(queue.id)) continue;
      // Nothing else is being answered in this turn: the heartbeat goes out at once.
      if (queue.push(HEARTBEAT, 0)) queue.wake();
      else this.end(queue);
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
    this.fanout.clear();
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    for (const queue of this.byId.values()) queue.wake();
  }

  /** One event to one queue, shaped for it; a queue ended since the event was published is skipped. */
  private deliverTo(queue: EventQueue, delivery: Delivery): void {
    if (this.closed || this.byId.get(queue.id) !== queue) return;
    const { published } = delivery;
    let event: ApiEvent | null;
    try {
      // Shaping: the event as this queue should receive it (events/type-rules.ts), or null if it does not take it.
      event = eventForQueue(queue, published);
    } catch (error) {
      // The queue would silently miss this event: end it, so that its client re-registers.
      this.settings.logger.error({ err: error, queueId: queue.id }, 'delivering an event to a queue failed; the queue is ended');
      this.end(queue);
      return;
    }
    if (!event) return;
    markSharedParts(event, delivery);
    // Sized once per published event, not per queue: shaping changes little of an event's size.
    if (!queue.push(event, (delivery.bytes ??= approximateBytes(published.event)))) this.end(queue);
    else this.wakeLater(queue);
  }

  /** Schedules the answer of the queue's waiting poll, if any, with this turn's other answers. */
  private wakeLater(queue: EventQueue): void {
    const waiter = queue.waiter;
    if (!waiter || waiter.wakeScheduled) return;
    waiter.wakeScheduled = true;
    this.woken.push(queue);
    if (this.woken.length === 1) setImmediate(this.answerWoken);
  }

  private readonly answerWoken = (): void => {
    const queues = this.woken;
    this.woken = [];
    // A newer poll may have answered the scheduled one and be waiting on an emptied queue: it
    // waits on. A queue deleted or ended in the meantime has no waiter any more.
    for (const queue of queues) if (!queue.isEmpty) queue.wake();
  };

  private unregister(queue: EventQueue): void {
    // Deleting a queue twice (a client's DELETE after the queue was ended) must not release its options twice.
    if (this.byId.get(queue.id) === queue) this.options.release(queue.options);
    this.byId.delete(queue.id);
    const queues = this.byUser.get(queue.userId);
    queues?.delete(queue);
    if (queues?.size === 0) this.byUser.delete(queue.userId);
    const inRealm = this.allPublicStreams.get(queue.realmId);
    if (inRealm?.delete(queue) && inRealm.size === 0) this.allPublicStreams.delete(queue.realmId);
    // A poll still holding the object must not keep its events alive.
    queue.release();
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

/**
 * The queue to give up when a user registers one too many: one no poll is holding before one a
 * poll holds (that client is connected now), then the one whose client connected least recently.
 */
function leastRecentlyUsed(queues: Set<EventQueue>): EventQueue {
  let oldest: EventQueue | undefined;
  for (const queue of queues) {
    if (!oldest || usedBefore(queue, oldest)) oldest = queue;
  }
  return oldest!;
}

function usedBefore(a: EventQueue, b: EventQueue): boolean {
  if ((a.waiter === null) !== (b.waiter === null)) return a.waiter === null;
  return a.lastConnectedAt < b.lastConnectedAt;
}
