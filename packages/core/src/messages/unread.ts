import { FLAG_BITS } from '../storage/types.js';

const MENTION_MASK = FLAG_BITS.mentioned | FLAG_BITS.stream_wildcard_mentioned | FLAG_BITS.topic_wildcard_mentioned;

/**
 * Whether an unread message belongs in unread_msgs.mentions: a direct mention always, a wildcard
 * mention unless it is in a channel the user muted. Register and the `mentioned` detail of
 * update_message_flags events both use this, so a client's state stays equal to a fresh fetch.
 */
export function isUnreadMention(flags: number, inMutedChannel: boolean): boolean {
  if (!(flags & MENTION_MASK)) return false;
  return !inMutedChannel || (flags & FLAG_BITS.mentioned) !== 0;
}
