import { FLAG_BITS, type Tx, type User, VISIBILITY_POLICY, type VisibilityPolicy } from '../storage/types.js';

const MENTION_MASK = FLAG_BITS.mentioned | FLAG_BITS.stream_wildcard_mentioned | FLAG_BITS.topic_wildcard_mentioned;

/**
 * Whether an unread message belongs in unread_msgs.mentions: a direct mention always, a wildcard
 * mention unless it is in a muted conversation (isConversationMuted). Register and the
 * `mentioned` detail of update_message_flags events both use this, so a client's state stays
 * equal to a fresh fetch.
 */
export function isUnreadMention(flags: number, inMutedConversation: boolean): boolean {
  if (!(flags & MENTION_MASK)) return false;
  return !inMutedConversation || (flags & FLAG_BITS.mentioned) !== 0;
}

/**
 * Whether a channel topic's unread messages are left out of unread_msgs' count and its wildcard
 * mentions (the reference's is_row_muted): in a muted channel unless the user unmuted or follows
 * the topic, and in any other channel when the user muted the topic.
 */
export function isConversationMuted(channelMuted: boolean, topicPolicy: VisibilityPolicy): boolean {
  if (channelMuted) return topicPolicy !== VISIBILITY_POLICY.unmuted && topicPolicy !== VISIBILITY_POLICY.followed;
  return topicPolicy === VISIBILITY_POLICY.muted;
}

/**
 * The user's muting of channels and topics, read once, as a check per channel topic. Topics
 * compare ignoring ASCII case, as the user_topic store compares them.
 */
export async function mutedConversations(tx: Tx, user: User): Promise<(streamId: number, topic: string) => boolean> {
  const mutedChannels = new Set((await tx.subscriptions.forUser(user.realmId, user.id)).filter((s) => s.isMuted).map((s) => s.streamId));
  const key = (streamId: number, topic: string) => `${streamId}\u0000${topic.replace(/[A-Z]+/g, (c) => c.toLowerCase())}`;
  const policies = new Map((await tx.userTopics.list(user.realmId, user.id)).map((r) => [key(r.streamId, r.topic), r.visibilityPolicy]));
  return (streamId, topic) => isConversationMuted(mutedChannels.has(streamId), policies.get(key(streamId, topic)) ?? VISIBILITY_POLICY.inherit);
}
