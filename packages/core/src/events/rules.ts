/**
 * Delivery: whether a queue takes a published event, and the event as that queue receives it.
 * Everything here is a pure function of the queue's options and ID and of the published
 * event's data, so another process applying this table to a JSON copy of the published event
 * delivers exactly what this one does.
 *
 * Queues that get the same variant of an event get the same object: variants are memoized per
 * published event (in a WeakMap, so nothing is added to the event itself), and neither the
 * published event nor a variant is ever changed.
 */
import type { PublishedEvent, Tailoring } from './bus.js';
import { EVENT_RULES, type EventRule } from './type-rules.js';
import type { QueueOptions } from './types.js';
import type { ApiEvent, EventType } from './union.js';

/** What delivery reads of a queue: its ID and how it was registered. */
export interface QueueView {
  readonly id: string;
  readonly options: QueueOptions;
}

export type { EventRule } from './type-rules.js';

const variants = new WeakMap<PublishedEvent, Map<string, ApiEvent>>();

/** The event as `queue` should receive it, or null when the queue does not take it. */
export function eventForQueue(queue: QueueView, published: PublishedEvent): ApiEvent | null {
  const { event, tailoring } = published;
  const types = queue.options.eventTypes;
  if (types !== null && !types.has(event.type)) return null;
  if (tailoring && !inAudience(queue.options, tailoring)) return null;
  const rule = EVENT_RULES[event.type] as EventRule<EventType> | undefined;
  const chosen = tailoring ? tailoringVariant(queue.options, tailoring) : '';
  const own = rule?.variant?.(queue, published) ?? '';
  const shaped = chosen === '' && own === '' ? event : variant(published, chosen, own, rule);
  return !rule?.accepts || rule.accepts(queue, shaped, published) ? shaped : null;
}

function variant(published: PublishedEvent, chosen: string, own: string, rule: EventRule<EventType> | undefined): ApiEvent {
  const key = `${chosen}|${own}`;
  let memo = variants.get(published);
  if (!memo) variants.set(published, (memo = new Map()));
  let shaped = memo.get(key);
  if (!shaped) {
    const base = chosenEvent(published, chosen);
    shaped = own === '' || !rule?.shape ? base : rule.shape(own, base, published);
    memo.set(key, shaped);
  }
  return shaped;
}

function inAudience(options: QueueOptions, tailoring: Tailoring): boolean {
  const { onlyIf } = tailoring;
  if (onlyIf && options.capabilities.has(onlyIf.capability) !== onlyIf.declared) return false;
  return !tailoring.allPublicStreamsOnly || options.allPublicStreams;
}

/** Which of the published alternatives the queue gets: '' for `event` itself. */
function tailoringVariant(options: QueueOptions, tailoring: Tailoring): string {
  const byCapability = tailoring.byCapability;
  if (byCapability) {
    const declared = options.capabilities.has(byCapability.capability);
    if (declared && byCapability.declared) return 'declared';
    if (!declared && byCapability.undeclared) return 'undeclared';
  }
  if (tailoring.clientGravatar && options.clientGravatar) return 'clientGravatar';
  return '';
}

function chosenEvent({ event, tailoring }: PublishedEvent, chosen: string): ApiEvent {
  if (chosen === 'declared') return tailoring!.byCapability!.declared!;
  if (chosen === 'undeclared') return tailoring!.byCapability!.undeclared!;
  if (chosen === 'clientGravatar') return tailoring!.clientGravatar!;
  return event;
}
