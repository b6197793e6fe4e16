import type { QueueOptions } from './types.js';

/**
 * The in-process event bus. Actions publish after their transaction commits; subscribers
 * (the event queues, embedders) receive each event with the IDs of the users it is for.
 */
export interface PublishedEvent {
  realmId: number;
  /** The users who may receive the event. */
  userIds: readonly number[];
  event: { type: string } & Record<string, unknown>;
  /**
   * The event as one queue should receive it, where that depends on how the queue was
   * registered (for example avatar URLs under client_gravatar). `event` when absent; null when
   * that queue does not take the event at all (for example a capability opts out of it).
   */
  shape?: (options: QueueOptions, queueId: string) => ({ type: string } & Record<string, unknown>) | null;
}

export type EventListener = (published: PublishedEvent) => void;

export interface EventBus {
  publish(published: PublishedEvent): void;
  /** Returns a function that removes the listener. */
  subscribe(listener: EventListener): () => void;
}

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
