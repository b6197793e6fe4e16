/**
 * The per-type delivery rules, in one table keyed by event type. Types without an entry are
 * delivered as published (after the generic tailoring of events/rules.ts). A rule may
 *  - name the variant a queue gets (`variant`; '' is the event as published): queues with the
 *    same variant get the same object, so `shape` must depend on the variant key alone;
 *  - build that variant (`shape`), from the event the generic tailoring chose, without
 *    changing it;
 *  - refuse the event for a queue (`accepts`), given the variant the queue would get.
 */
import { messageMatchesNarrow } from '../messages/event-narrow.js';
import { topicForClient } from '../messages/normalize.js';
import type { PublishedEvent } from './bus.js';
import type { QueueView } from './rules.js';
import type { ClientCapability } from './types.js';
import type { MessageRecord } from './union/messages.js';
import type { EventOf, EventType } from './union.js';
import { extend } from '../objects.js';

/** How one event type is delivered per queue; every function is pure. */
export interface EventRule<T extends EventType> {
  accepts?(queue: QueueView, event: EventOf<T>, published: PublishedEvent<EventOf<T>>): boolean;
  variant?(queue: QueueView, published: PublishedEvent<EventOf<T>>): string;
  shape?(variant: string, event: EventOf<T>, published: PublishedEvent<EventOf<T>>): EventOf<T>;
}

const has = (queue: QueueView, capability: ClientCapability) => queue.options.capabilities.has(capability);

/**
 * Clients without empty_topic_name see the empty topic by its display name (SHAPES.md 1.5);
 * events without an empty topic are the same for every client.
 */
const LEGACY_TOPIC = 'topic-display-name';
const legacyTopic = (queue: QueueView) => (has(queue, 'empty_topic_name') ? '' : LEGACY_TOPIC);

/** The delivery rule of each event type that has one (see the top of this file). */
export const EVENT_RULES: { readonly [T in EventType]?: EventRule<T> } = {
  message: {
    // all_public_streams copies are tailored as data (allPublicStreamsOnly); the narrow is
    // matched on the record as this queue receives it.
    accepts: (queue, event) => messageMatchesNarrow(queue.options.narrow, event),
    variant(queue, { tailoring }) {
      const { applyMarkdown, clientGravatar } = queue.options;
      const record = `${applyMarkdown ? '' : 'r'}${clientGravatar ? 'g' : ''}${has(queue, 'empty_topic_name') ? 'e' : ''}`;
      return tailoring?.localEcho?.queueId === queue.id ? `${record}+local` : record;
    },
    shape(variant, event, { tailoring }) {
      const [record, local] = variant.split('+');
      const message = messageRecord(event.message, record!, tailoring?.messageFields);
      return extend(event, local && tailoring?.localEcho ? { message, local_message_id: tailoring.localEcho.localId } : { message });
    },
  },
  update_message: {
    variant: (queue, { event }) => (event.orig_subject === '' || event.subject === '' ? legacyTopic(queue) : ''),
    shape(_variant, event) {
      const shaped = { ...event };
      if (shaped.orig_subject !== undefined) shaped.orig_subject = topicForClient(shaped.orig_subject, false);
      if (shaped.subject !== undefined) shaped.subject = topicForClient(shaped.subject, false);
      return shaped;
    },
  },
  delete_message: {
    variant: (queue, { event }) => (event.message_type === 'stream' && event.topic === '' ? legacyTopic(queue) : ''),
    shape: (_variant, event) => (event.message_type === 'stream' ? { ...event, topic: topicForClient(event.topic, false) } : event),
  },
  update_message_flags: {
    variant: (queue, { event }) =>
      Object.values(event.message_details ?? {}).some((d) => d.type === 'stream' && d.topic === '') ? legacyTopic(queue) : '',
    shape(_variant, event) {
      const details = Object.entries(event.message_details ?? {}).map(([id, d]) => [id, d.type === 'stream' ? { ...d, topic: topicForClient(d.topic, false) } : d]);
      return { ...event, message_details: Object.fromEntries(details) };
    },
  },
  typing: {
    // Channel typing only for clients that declared stream_typing_notifications.
    accepts: (queue, event) => event.message_type !== 'stream' || has(queue, 'stream_typing_notifications'),
    variant: (queue, { event }) => (event.message_type === 'stream' && event.topic === '' ? legacyTopic(queue) : ''),
    shape: (_variant, event) => (event.message_type === 'stream' ? { ...event, topic: topicForClient(event.topic, false) } : event),
  },
  typing_edit_message: {
    accepts: (queue, event) => event.recipient.type !== 'channel' || has(queue, 'stream_typing_notifications'),
    variant: (queue, { event }) => (event.recipient.type === 'channel' && event.recipient.topic === '' ? legacyTopic(queue) : ''),
    shape: (_variant, event) =>
      event.recipient.type === 'channel' ? { ...event, recipient: { ...event.recipient, topic: topicForClient(event.recipient.topic, false) } } : event,
  },
  user_topic: {
    variant: (queue, { event }) => (event.topic_name === '' ? legacyTopic(queue) : ''),
    shape: (_variant, event) => ({ ...event, topic_name: topicForClient(event.topic_name, false) }),
  },
  // A queue that asked for `user_topic` by name does not get the legacy event (the reference's rule).
  muted_topics: { accepts: (queue) => !queue.options.eventTypes?.has('user_topic') },
  // Only clients that expand url_template themselves (SHAPES.md 4.11); `realm_filters` is never sent.
  realm_linkifiers: { accepts: (queue) => has(queue, 'linkifier_url_template') },
  // Clients with archived_channels learn of archiving through update is_archived; the others
  // through delete and create, which are published for them only (Tailoring.onlyIf).
  stream: { accepts: (queue, event) => !(event.op === 'update' && event.property === 'is_archived') || has(queue, 'archived_channels') },
};

/**
 * Message records per variant, shared by every published event that carries the same record
 * (the recipients of one message are published in groups by flags).
 */
const records = new WeakMap<MessageRecord, Map<string, MessageRecord>>();

function messageRecord(base: MessageRecord, variant: string, fields: NonNullable<PublishedEvent['tailoring']>['messageFields']): MessageRecord {
  if (variant === '' || !fields) return base;
  let byVariant = records.get(base);
  if (!byVariant) records.set(base, (byVariant = new Map()));
  let record = byVariant.get(variant);
  if (!record) {
    // The fields exist in `base`, so spreading over it keeps the key order of a fresh format.
    record = {
      ...base,
      ...(variant.includes('r') ? fields.rawMarkdown : {}),
      ...(variant.includes('g') ? fields.clientGravatar : {}),
      ...(variant.includes('e') ? fields.emptyTopicName : {}),
    };
    byVariant.set(variant, record);
  }
  return record;
}

