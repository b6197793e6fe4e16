import type { EventQueue } from './queue.js';
import type { ApiEvent } from './types.js';

/**
 * Per-type delivery rules. Each area registers the rules of its own event types from its own
 * module: whether a queue takes an event (capabilities, narrow) and how the event is shaped for
 * that queue (for example avatar URLs under client_gravatar). Types without a rule are
 * delivered as published.
 */
export interface EventRule {
  accepts?(queue: EventQueue, event: ApiEvent): boolean;
  shape?(queue: EventQueue, event: ApiEvent): ApiEvent;
}

const RULES = new Map<string, EventRule>();

export function defineEventRule(type: string, rule: EventRule): void {
  RULES.set(type, rule);
}

/** The event as `queue` should receive it, or null when the queue does not take it. */
export function eventForQueue(queue: EventQueue, event: ApiEvent): ApiEvent | null {
  const types = queue.options.eventTypes;
  if (types !== null && !types.has(event.type)) return null;
  const rule = RULES.get(event.type);
  if (rule?.accepts && !rule.accepts(queue, event)) return null;
  return rule?.shape ? rule.shape(queue, event) : event;
}
