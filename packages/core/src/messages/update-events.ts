import type { Ctx } from '../context.js';
import { publishOnCommit } from '../events/publish.js';
import type { UpdateMessageEvent } from '../events/union/messages.js';
import type { PropagateMode } from '../schemas/message-edit.js';
import type { Realm, Stream, Tx } from '../storage/types.js';
import { flagNames } from './flags.js';

/** One PATCH /messages/{id}: what changed, for the update_message event (SHAPES.md 4.3). */
export interface MessageChange {
  editorId: number;
  /** Unix seconds. */
  timestamp: number;
  messageId: number;
  /** Every changed message (the target alone for a content edit), ascending. */
  messageIds: readonly number[];
  /** The channel of a channel message before the change. */
  stream: Stream | null;
  content?: { orig: string; origRendered: string; content: string; rendered: string; isMeMessage: boolean };
  move?: {
    propagateMode: PropagateMode;
    origTopic: string;
    /** Present when the topic changed. */
    topic?: { name: string; links: Array<{ text: string; url: string }> };
    newStreamId?: number;
  };
}

/**
 * update_message to each user who holds the message after the change, with their flags on the
 * target message (`read` for subscribers reading it without a copy). Users with the same flags
 * share one published event.
 */
export function announceMessageUpdate(ctx: Ctx, tx: Tx, realm: Realm, change: MessageChange, flagsByUser: ReadonlyMap<number, number | null>): void {
  const body: Omit<UpdateMessageEvent, 'flags'> = {
    type: 'update_message',
    user_id: change.editorId,
    rendering_only: false,
    message_id: change.messageId,
    message_ids: [...change.messageIds],
    edit_timestamp: change.timestamp,
  };
  if (change.stream) Object.assign(body, { stream_name: change.stream.name, stream_id: change.stream.id });
  if (change.content) {
    const c = change.content;
    Object.assign(body, { orig_content: c.orig, orig_rendered_content: c.origRendered, content: c.content, rendered_content: c.rendered, is_me_message: c.isMeMessage });
  }
  if (change.move) {
    const m = change.move;
    Object.assign(body, { propagate_mode: m.propagateMode, orig_subject: m.origTopic });
    if (m.topic) Object.assign(body, { subject: m.topic.name, topic_links: m.topic.links });
    if (m.newStreamId !== undefined) body.new_stream_id = m.newStreamId;
  }
  const groups = new Map<string, number[]>();
  for (const [userId, flags] of flagsByUser) {
    const names = flags === null ? ['read'] : flagNames(flags);
    const key = JSON.stringify(names);
    groups.set(key, [...(groups.get(key) ?? []), userId]);
  }
  for (const [key, userIds] of groups) {
    publishOnCommit(ctx, tx, { realmId: realm.id, userIds: userIds.sort((a, b) => a - b), event: { ...body, flags: JSON.parse(key) } });
  }
}
