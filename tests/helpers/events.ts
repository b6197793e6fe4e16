/**
 * Event types for tests that read events field by field across several event types at once
 * (reducers, recipient lists), where narrowing each by `type` and `op` would only repeat the
 * assertion that follows. Tests of one event type use the union from @teamchat/core.
 */
import type { ApiEvent, PublishedEvent, QueuedEvent, QueueOptions } from '@teamchat/core/internal';

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
