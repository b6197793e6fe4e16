import type { Ctx } from '../context.js';
import { publishOnCommit } from '../events/publish.js';
import type { Tailoring } from '../events/bus.js';
import type { MessageRecord } from '../events/union/messages.js';
import type { Message, Realm, Submessage, Tx } from '../storage/types.js';
import { extend } from '../objects.js';
import { flagNames } from './flags.js';
import { formatMessage, type MessageView, optionDependentFields } from './format.js';

export interface MessageEventOptions {
  /** The sender's queue that should get `local_message_id` (POST /messages queue_id + local_id). */
  localEcho?: { queueId: string; localId: string };
  /**
   * A public channel's message: queues registered with all_public_streams whose user has no
   * copy get it with no flags (the registry picks them, see `PublishedEvent.allPublicStreamsQueues`).
   */
  toAllPublicStreams?: boolean;
  /** The message's submessages (a widget's first one, created with the message). */
  submessages?: readonly Submessage[];
}

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
  const defaultView = extend(view, { applyMarkdown: true, clientGravatar: false, emptyTopicName: false });
  const record: MessageRecord = formatMessage(message, defaultView, [], options.submessages ?? []);
  const messageFields: Tailoring['messageFields'] = optionDependentFields(message, defaultView, record);
  const groups = new Map<number, number[]>();
  for (const [userId, flags] of flagsByUser) {
    const group = groups.get(flags);
    if (group) group.push(userId);
    else groups.set(flags, [userId]);
  }
  const localEcho = options.localEcho ? { localEcho: options.localEcho } : {};
  for (const [flags, userIds] of groups) {
    publishOnCommit(ctx, tx, {
      realmId: realm.id,
      userIds,
      event: { type: 'message', message: record, flags: flagNames(flags) },
      tailoring: { messageFields, ...localEcho },
    });
  }
  if (!options.toAllPublicStreams) return;
  publishOnCommit(ctx, tx, {
    realmId: realm.id,
    userIds: [],
    allPublicStreamsQueues: { exceptUserIds: [...flagsByUser.keys()] },
    event: { type: 'message', message: record, flags: [] },
    tailoring: { messageFields, allPublicStreamsOnly: true },
  });
}
