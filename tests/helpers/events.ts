/**
 * Event types for tests that read events field by field across several event types at once
 * (reducers, recipient lists), where narrowing each by `type` and `op` would only repeat the
 * assertion that follows. Tests of one event type use the union from @teamchat/core.
 */
import type { ApiEvent, EventOf, EventType, PublishedEvent, QueuedEvent, QueueOptions } from '@teamchat/core/internal';

/** A queued event whose fields are read without narrowing it first. */
// biome-ignore lint/suspicious/noExplicitAny: any field of any event type, as the assertion that follows checks it
export type LooseQueuedEvent = QueuedEvent & Record<string, any>;

/** A published event whose event's fields are read without narrowing it first. */
// biome-ignore lint/suspicious/noExplicitAny: as above
export type LoosePublishedEvent = PublishedEvent & { event: ApiEvent & Record<string, any> };

/**
 * An event outside the union (type "test", or no body), for tests of queue mechanics that do
 * not look at what an event holds.
 */
export const untypedEvent = (event: TestEvent): ApiEvent => event as ApiEvent;

export type TestEvent = { type: string } & Record<string, unknown>;

/** What register gives a queue with no parameters, for tests that create queues directly. */
export const QUEUE_OPTIONS: QueueOptions = {
  eventTypes: null,
  narrow: [],
  capabilities: new Set(),
  clientGravatar: true,
  applyMarkdown: false,
  allPublicStreams: false,
  idleTimeoutSecs: 600,
};

/** The `op`s events of `type` carry (never for a type without ops). */
export type OpOf<T extends EventType> = EventOf<T> extends infer E ? (E extends { op: infer O } ? O : never) : never;

/** The events of `type` whose `op` is `O` (all of them when no op is asked for), each with `op` narrowed to `O`. */
export type NarrowedEvent<T extends EventType, O extends OpOf<T> | undefined> = [O] extends [undefined]
  ? EventOf<T>
  : EventOf<T> extends infer E
    ? E extends { op: infer P }
      ? O extends P
        ? E & { op: O }
        : never
      : never
    : never;

/** A guard narrowing an event to its `type` (and `op`), so its fields read typed, without a cast. */
export function isEvent<T extends EventType, O extends OpOf<T> | undefined = undefined>(
  event: ApiEvent,
  type: T,
  op?: O,
): event is NarrowedEvent<T, O> & ApiEvent {
  return event.type === type && (op === undefined || ('op' in event && event.op === op));
}

/** The events of `type` (and `op`) among `events`, narrowed. */
export function eventsOfType<E extends ApiEvent, T extends EventType, O extends OpOf<T> | undefined = undefined>(
  events: readonly E[],
  type: T,
  op?: O,
): Array<E & NarrowedEvent<T, O>> {
  return events.filter((event): event is E & NarrowedEvent<T, O> => isEvent(event, type, op));
}

/** The events of `type` (and `op`) among published ones, narrowed. */
export const publishedOfType = <T extends EventType, O extends OpOf<T> | undefined = undefined>(
  published: readonly PublishedEvent[],
  type: T,
  op?: O,
): Array<NarrowedEvent<T, O>> => eventsOfType(published.map((p) => p.event), type, op);
