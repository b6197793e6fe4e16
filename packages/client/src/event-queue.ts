/**
 * The event-queue loop the reference's clients run: register a queue, long-poll GET /events
 * with the last event ID seen, retry network errors and 5xx answers with backoff, and when the
 * server has forgotten the queue (BAD_EVENT_QUEUE_ID: it expired or was ended) register a new
 * one and tell the caller, whose state is stale from then on. `stop()` deletes the queue.
 */
import { type BackoffOptions, backoffDelay, sleep } from './backoff.js';
import type { Client } from './client.js';
import type { QueuedEvent } from './core-types.js';
import type { SuccessEnvelope } from './endpoint.js';
import { ApiError, ConnectionError, isTransient } from './errors.js';
import type { Endpoints } from './generated/endpoints.js';

/** POST /register's parameters: event_types, narrow, client_capabilities, fetch_event_types… */
export type RegisterParams = Endpoints['register']['input'];
/** POST /register's answer: the queue and the initial state. */
export type RegisterState = Endpoints['register']['result'] & SuccessEnvelope & { queue_id: string; last_event_id: number };

/**
 * Not a server event: the queue was lost and a new one registered. Events in between are gone;
 * `state` is the new initial state, which replaces everything built from the old one.
 */
export interface ReregisteredNotice {
  type: 'queue_reregistered';
  state: RegisterState;
  /** Why the old queue is gone: the server's error. */
  reason: ApiError;
}

/** What the queue hands its caller: a server event, or the notice to refetch state. */
export type QueueItem = QueuedEvent | ReregisteredNotice;

export interface EventQueueOptions {
  /** Parameters of every registration (the first, and each re-registration). */
  register?: RegisterParams;
  /** Hand heartbeat events to the caller too (default: consumed silently). */
  heartbeats?: boolean;
  /** Backoff after network errors and 5xx answers. */
  backoff?: BackoffOptions;
  /** A poll with no answer after this many ms is abandoned and retried (default 90000: above the server's heartbeat). */
  pollTimeoutMs?: number;
  /** Each item as it arrives (the callback API; iterating the queue is the other). */
  onItem?: (item: QueueItem) => void;
  /** A failed request that will be retried after `delayMs`. */
  onRetry?: (info: { attempt: number; delayMs: number; error: unknown }) => void;
  /** The error that ended the loop (for example UNAUTHORIZED); iterators throw it too. */
  onError?: (error: unknown) => void;
}

interface Consumer {
  items: QueueItem[];
  wake: (() => void) | undefined;
}

export class EventQueue implements AsyncIterable<QueueItem> {
  /** The current queue's ID (changes on re-registration). */
  queueId: string | undefined;
  /** The last event ID received, sent with the next poll to acknowledge everything up to it. */
  lastEventId = -1;
  private running: Promise<void> | undefined;
  private stopped = false;
  private failure: unknown;
  private readonly stopping = new AbortController();
  private poll: AbortController | undefined;
  private readonly consumers = new Set<Consumer>();

  constructor(
    private readonly client: Client,
    private readonly options: EventQueueOptions = {},
  ) {}

  /** Registers the queue and starts polling; answers the initial state. Throws if registering fails. */
  async start(): Promise<RegisterState> {
    if (this.running || this.stopped) throw new Error('an event queue starts once');
    this.running = Promise.resolve();
    const state = await this.register();
    this.running = this.loop();
    return state;
  }

  /** Ends polling and deletes the server's queue (best effort: a queue already gone is fine). */
  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    this.stopping.abort();
    this.poll?.abort();
    await this.running?.catch(() => undefined);
    const queueId = this.queueId;
    this.queueId = undefined;
    if (queueId !== undefined) await this.client.deleteQueue({ queue_id: queueId }).catch(() => undefined);
    this.wakeAll();
  }

  /**
   * Items from the moment this is called until `stop()`, buffered until read; throws the error
   * that ended the loop. The first read starts the queue if `start()` was not called.
   */
  [Symbol.asyncIterator](): AsyncIterator<QueueItem> {
    const consumer: Consumer = { items: [], wake: undefined };
    this.consumers.add(consumer);
    return this.drain(consumer);
  }

  private async *drain(consumer: Consumer): AsyncGenerator<QueueItem> {
    try {
      if (!this.running) await this.start();
      for (;;) {
        const item = consumer.items.shift();
        if (item) {
          yield item;
          continue;
        }
        if (this.failure !== undefined) throw this.failure;
        if (this.stopped) return;
        await new Promise<void>((resolve) => (consumer.wake = resolve));
        consumer.wake = undefined;
      }
    } finally {
      this.consumers.delete(consumer);
    }
  }

  private async register(): Promise<RegisterState> {
    const state = (await this.client.register(this.options.register, { signal: this.stopping.signal })) as RegisterState;
    this.queueId = state.queue_id;
    this.lastEventId = state.last_event_id;
    return state;
  }

  private async loop(): Promise<void> {
    let failures = 0;
    let lost: ApiError | undefined;
    while (!this.stopped) {
      try {
        if (lost) {
          const state = await this.register();
          this.emit({ type: 'queue_reregistered', state, reason: lost });
          lost = undefined;
        }
        const events = await this.pollOnce();
        failures = 0;
        for (const event of events) {
          this.lastEventId = Math.max(this.lastEventId, event.id);
          if (event.type !== 'heartbeat' || this.options.heartbeats) this.emit(event);
        }
      } catch (error) {
        if (this.stopped) return;
        if (error instanceof ApiError && error.code === 'BAD_EVENT_QUEUE_ID') {
          lost = error;
          continue;
        }
        let delayMs: number;
        if (error instanceof ApiError && error.code === 'RATE_LIMIT_HIT') delayMs = (error.retryAfter ?? 1) * 1000;
        else if (isTransient(error)) delayMs = backoffDelay(++failures, this.options.backoff);
        else return this.fail(error);
        this.options.onRetry?.({ attempt: failures, delayMs, error });
        await sleep(delayMs, this.stopping.signal);
      }
    }
  }

  /** One long poll, abandoned after `pollTimeoutMs` (a connection that died silently never answers). */
  private async pollOnce(): Promise<QueuedEvent[]> {
    const poll = new AbortController();
    this.poll = poll;
    const timeoutMs = this.options.pollTimeoutMs ?? 90_000;
    const timer = setTimeout(() => poll.abort(new ConnectionError(`GET /events: no answer within ${timeoutMs} ms`, 0)), timeoutMs);
    try {
      const answer = await this.client.getEvents(
        { queue_id: this.queueId, last_event_id: this.lastEventId, dont_block: false },
        { signal: poll.signal },
      );
      return (answer as unknown as { events: QueuedEvent[] }).events;
    } finally {
      clearTimeout(timer);
      this.poll = undefined;
    }
  }

  private emit(item: QueueItem): void {
    this.options.onItem?.(item);
    for (const consumer of this.consumers) consumer.items.push(item);
    this.wakeAll();
  }

  /** Ends the loop on an error retrying cannot mend; `stop()` still deletes the queue. */
  private fail(error: unknown): void {
    this.failure = error;
    this.options.onError?.(error);
    this.wakeAll();
  }

  private wakeAll(): void {
    for (const consumer of this.consumers) consumer.wake?.();
  }
}
