import type { Ctx } from '../context.js';
import { publishOnCommit } from '../events/publish.js';
import type { UnreadMessageDetails, UpdateMessageFlagsEvent } from '../events/union/messages.js';
import { schedulePushRemoval } from '../push/dispatch.js';
import type { Actor } from '../operation.js';
import type { Message, Tx } from '../storage/types.js';
import { type FlagRequest, marksUnread } from './flag-request.js';
import { isUnreadMention, mutedConversations } from './unread.js';

type Details = UnreadMessageDetails;

/**
 * The update_message_flags event (SHAPES.md 4.5), to the acting user's own queues only. When
 * messages become unread, `message_details` tells clients where to file them in unread_msgs;
 * its topics are shaped per queue like every other topic (empty_topic_name, events/type-rules.ts).
 */
export async function announceFlagUpdate(ctx: Ctx, tx: Tx, actor: Actor, request: FlagRequest, messageIds: readonly number[]): Promise<void> {
  if (messageIds.length === 0) return;
  const event: UpdateMessageFlagsEvent = { type: 'update_message_flags', op: request.op, operation: request.op, flag: request.flag, messages: [...messageIds], all: false };
  // Every path that marks messages read announces it here: their notifications leave the user's devices.
  if (request.op === 'add' && request.flag === 'read') await schedulePushRemoval(ctx, tx, actor.realm, [actor.user.id], messageIds);
  if (!marksUnread(request)) {
    publishOnCommit(ctx, tx, { realmId: actor.realm.id, userIds: [actor.user.id], event });
    return;
  }
  // Topics as stored: the update_message_flags rule shows the empty topic to clients without empty_topic_name.
  const details = Object.fromEntries([...(await unreadDetails(tx, actor, messageIds))].map(([id, d]) => [String(id), d]));
  publishOnCommit(ctx, tx, { realmId: actor.realm.id, userIds: [actor.user.id], event: { ...event, message_details: details } });
}

async function unreadDetails(tx: Tx, { realm, user }: Actor, messageIds: readonly number[]): Promise<Map<number, Details>> {
  const messages = await tx.messages.byIds(realm.id, messageIds);
  const flags = await tx.messages.flagsOf(user.id, messageIds);
  const isMuted = await mutedConversations(tx, user);
  const details = new Map<number, Details>();
  for (const message of messages) details.set(message.id, detailsOf(message, flags.get(message.id) ?? 0, user.id, isMuted));
  return details;
}

/** unmuted_stream_msg and mentioned follow the muting of both channels and topics, as register does. */
function detailsOf(message: Message, flags: number, userId: number, isMuted: (streamId: number, topic: string) => boolean): Details {
  const muted = message.type === 'stream' && isMuted(message.streamId!, message.topic);
  const mentioned = isUnreadMention(flags, muted) ? { mentioned: true as const } : {};
  if (message.type === 'stream') {
    return { type: 'stream', stream_id: message.streamId!, topic: message.topic, unmuted_stream_msg: !muted, ...mentioned };
  }
  // The other participants: [] for a conversation with oneself.
  const others = message.dmKey!.split(',').map(Number).filter((id) => id !== userId);
  return { type: 'private', user_ids: others, ...mentioned };
}
