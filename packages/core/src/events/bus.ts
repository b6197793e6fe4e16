import type { MessageRecord } from './union/messages.js';
import type { ApiEvent } from './union.js';
import type { ClientCapability } from './types.js';

/**
 * How a published event is tailored per queue, as plain data: the rules of events/rules.ts
 * read it at delivery. Nothing here is a function, so a published event survives
 * `JSON.parse(JSON.stringify(published))` and is delivered identically in another process.
 */
export interface Tailoring {
  /** Only queues whose client did (`declared: true`) or did not declare `capability` take the event. */
  onlyIf?: { capability: ClientCapability; declared: boolean };
  /** Only queues registered with all_public_streams take the event. */
  allPublicStreamsOnly?: true;
  /**
   * The event for queues whose client declared `capability` (`declared`) or did not
   * (`undeclared`), where that differs from `event` (realm_emoji, presence, subscription add).
   */
  byCapability?: { capability: ClientCapability; declared?: ApiEvent; undeclared?: ApiEvent };
  /** The event for queues registered with client_gravatar, where that differs (realm_user add). */
  clientGravatar?: ApiEvent;
  /**
   * `message` events: the fields of the message record that differ from `event.message`
   * (formatted with apply_markdown, without client_gravatar and empty_topic_name) when a queue
   * has apply_markdown off, client_gravatar on, or empty_topic_name declared. Each option
   * changes its own fields only, so a queue's record is `event.message` with the fields of
   * its options put over it.
   */
  messageFields?: { rawMarkdown: Partial<MessageRecord>; clientGravatar: Partial<MessageRecord>; emptyTopicName: Partial<MessageRecord> };
  /** `message` events: the sender's queue (POST /messages queue_id), which also gets `local_message_id`. */
  localEcho?: { queueId: string; localId: string };
}

/**
 * The in-process event bus. Actions publish after their transaction commits; subscribers
 * (the event queues, embedders) receive each event with the IDs of the users it is for.
 * A published event is plain data and is never changed once published.
 */
export interface PublishedEvent<E extends ApiEvent = ApiEvent> {
  realmId: number;
  /** The users who may receive the event. */
  userIds: readonly number[];
  /** The event as a queue with no particular options receives it. */
  event: E;
  tailoring?: Tailoring;
  /**
   * Besides `userIds`: every queue of the realm registered with all_public_streams, except those
   * of `exceptUserIds` (users who get their own copy) and of users who may no longer read public
   * channels (a member since turned guest). The registry picks these queues itself when the
   * event is published, after its commit, so a send need not read the realm's users, and a
   * queue registered before the commit is among them (one registered later has the change in
   * its snapshot already).
   */
  allPublicStreamsQueues?: { exceptUserIds: readonly number[] };
}

/** Called with every published event, synchronously, in publishing order. */
export type EventListener = (published: PublishedEvent) => void;

/**
 * Where committed operations publish their events and queues (or any listener) take them. The
 * default is in process; pass another (`createContext({ events })`) to carry events elsewhere.
 */
export interface EventBus {
  publish(published: PublishedEvent): void;
  /** Returns a function that removes the listener. */
  subscribe(listener: EventListener): () => void;
}

/** An in-process bus: each published event goes to every listener at once. */
export function createEventBus(): EventBus {
  const listeners = new Set<EventListener>();
  return {
    publish(published) {
      for (const listener of listeners) listener(published);
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
