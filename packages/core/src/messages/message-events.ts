import type { Ctx } from '../context.js';
import { publishOnCommit } from '../events/publish.js';
import { defineEventRule } from '../events/rules.js';
import type { QueueOptions } from '../events/types.js';
import type { Message, Realm, Submessage, Tx } from '../storage/types.js';
import { flagNames } from './flags.js';
import { messageMatchesNarrow } from './event-narrow.js';
import { formatMessage, type MessageView } from './format.js';

export interface MessageEventOptions {
  /** The sender's queue that should get `local_message_id` (POST /messages queue_id + local_id). */
  localEcho?: { queueId: string; localId: string };
  /**
   * Users without a copy who may read the channel's history (a public channel's non-guest
   * members): their queues registered with all_public_streams get the message, with no flags.
   */
  publicAudience?: readonly number[];
  /** The message's submessages (a widget's first one, created with the message). */
  submessages?: readonly Submessage[];
}

/** Marks the event for all_public_streams queues only; the rule below strips it. */
const PUBLIC_ONLY = 'all_public_streams_only';

/**
 * `message` events for a new message: each recipient gets the message with their own flags,
 * shaped for their queue (apply_markdown, client_gravatar, empty_topic_name). Recipients with
 * the same flags share one published event.
 */
export function announceMessage(
  ctx: Ctx,
  tx: Tx,
  realm: Realm,
  message: Message,
  view: Omit<MessageView, 'applyMarkdown' | 'clientGravatar' | 'emptyTopicName'>,
  flagsByUser: ReadonlyMap<number, number>,
  options: MessageEventOptions = {},
): void {
  const shapes = new Map<string, Record<string, unknown>>();
  const formatted = (queue: QueueOptions) => {
    const emptyTopicName = queue.capabilities.has('empty_topic_name');
    const key = `${queue.applyMarkdown}/${queue.clientGravatar}/${emptyTopicName}`;
    let record = shapes.get(key);
    if (!record) {
      record = formatMessage(message, { ...view, applyMarkdown: queue.applyMarkdown, clientGravatar: queue.clientGravatar, emptyTopicName }, [], options.submessages ?? []);
      shapes.set(key, record);
    }
    return record;
  };
  const groups = new Map<number, number[]>();
  for (const [userId, flags] of flagsByUser) groups.set(flags, [...(groups.get(flags) ?? []), userId]);
  for (const [flags, userIds] of groups) {
    const names = flagNames(flags);
    publishOnCommit(ctx, tx, {
      realmId: realm.id,
      userIds,
      event: { type: 'message', message: formatted(DEFAULT_SHAPE), flags: names },
      shape: (queue, queueId) => ({
        type: 'message',
        message: formatted(queue),
        flags: names,
        ...(options.localEcho?.queueId === queueId ? { local_message_id: options.localEcho.localId } : {}),
      }),
    });
  }
  const publicAudience = (options.publicAudience ?? []).filter((id) => !flagsByUser.has(id));
  publishOnCommit(ctx, tx, {
    realmId: realm.id,
    userIds: publicAudience,
    event: { type: 'message', message: formatted(DEFAULT_SHAPE), flags: [], [PUBLIC_ONLY]: true },
    shape: (queue) => ({ type: 'message', message: formatted(queue), flags: [], [PUBLIC_ONLY]: true }),
  });
}

const DEFAULT_SHAPE = { applyMarkdown: true, clientGravatar: false, capabilities: new Set() } as unknown as QueueOptions;

/** A queue registered with a narrow receives only the messages that match it. */
defineEventRule('message', {
  accepts: (queue, event) => (!event[PUBLIC_ONLY] || queue.options.allPublicStreams) && messageMatchesNarrow(queue.options.narrow, event),
  shape: (_queue, event) => {
    if (!event[PUBLIC_ONLY]) return event;
    const { [PUBLIC_ONLY]: _marker, ...rest } = event;
    return rest as typeof event;
  },
});
