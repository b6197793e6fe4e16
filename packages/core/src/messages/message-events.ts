import type { Ctx } from '../context.js';
import { publishOnCommit } from '../events/publish.js';
import type { Tailoring } from '../events/bus.js';
import type { MessageRecord } from '../events/union/messages.js';
import type { Message, Realm, Submessage, Tx } from '../storage/types.js';
import { flagNames } from './flags.js';
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

/** The record's fields each queue option changes (formatMessage): the rest is the same for every queue. */
const FIELDS_BY_OPTION = {
  rawMarkdown: ['content', 'content_type'],
  clientGravatar: ['avatar_url'],
  emptyTopicName: ['subject', 'edit_history'],
} as const;

/**
 * `message` events for a new message: each recipient gets the message with their own flags,
 * shaped for their queue (apply_markdown, client_gravatar, empty_topic_name) by the `message`
 * rule (events/type-rules.ts) from the record and the fields each option changes, which the
 * published event carries. Recipients with the same flags share one published event.
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
  const format = (applyMarkdown: boolean, clientGravatar: boolean, emptyTopicName: boolean): MessageRecord =>
    formatMessage(message, { ...view, applyMarkdown, clientGravatar, emptyTopicName }, [], options.submessages ?? []);
  const record = format(true, false, false);
  const pick = (other: MessageRecord, keys: readonly string[]) => Object.fromEntries(keys.filter((key) => key in record).map((key) => [key, other[key]]));
  const messageFields: Tailoring['messageFields'] = {
    rawMarkdown: pick(format(false, false, false), FIELDS_BY_OPTION.rawMarkdown),
    clientGravatar: pick(format(true, true, false), FIELDS_BY_OPTION.clientGravatar),
    emptyTopicName: pick(format(true, false, true), FIELDS_BY_OPTION.emptyTopicName),
  };
  const groups = new Map<number, number[]>();
  for (const [userId, flags] of flagsByUser) groups.set(flags, [...(groups.get(flags) ?? []), userId]);
  const localEcho = options.localEcho ? { localEcho: options.localEcho } : {};
  for (const [flags, userIds] of groups) {
    publishOnCommit(ctx, tx, {
      realmId: realm.id,
      userIds,
      event: { type: 'message', message: record, flags: flagNames(flags) },
      tailoring: { messageFields, ...localEcho },
    });
  }
  const publicAudience = (options.publicAudience ?? []).filter((id) => !flagsByUser.has(id));
  publishOnCommit(ctx, tx, {
    realmId: realm.id,
    userIds: publicAudience,
    event: { type: 'message', message: record, flags: [] },
    tailoring: { messageFields, allPublicStreamsOnly: true },
  });
}
