import { topicForClient } from '../messages/normalize.js';
import { isUnreadMention, mutedConversations } from '../messages/unread.js';
import type { UnreadMessages } from './register-response.js';
import { defineSection } from './sections.js';

/**
 * The `message` section: max_message_id, and unread_msgs when update_message_flags is requested
 * too (SHAPES.md 2.4, 2.7).
 */
export const messageSection = defineSection({
  key: 'message',
  async fetch(_ctx, tx, { user }, options) {
    if (!user) return { max_message_id: -1 };
    const maxMessageId = await tx.messages.maxMessageId(user.id);
    if (options.wanted && !options.wanted.has('update_message_flags')) return { max_message_id: maxMessageId };

    const isMuted = await mutedConversations(tx, user);
    const pms = new Map<number, number[]>();
    const streams = new Map<string, { stream_id: number; topic: string; unread_message_ids: number[] }>();
    const huddles = new Map<string, number[]>();
    const mentions: number[] = [];
    let count = 0;
    const emptyTopicName = options.capabilities.has('empty_topic_name');
    for (const unread of await tx.messages.unread(user.id)) {
      if (unread.type === 'stream') {
        const key = `${unread.streamId}\u0000${unread.topic.toLowerCase()}`;
        let entry = streams.get(key);
        if (!entry) streams.set(key, (entry = { stream_id: unread.streamId!, topic: topicForClient(unread.topic, emptyTopicName), unread_message_ids: [] }));
        entry.unread_message_ids.push(unread.id);
        if (!isMuted(unread.streamId!, unread.topic)) count++;
      } else {
        const participants = unread.dmKey!.split(',').map(Number);
        if (participants.length <= 2) {
          const other = participants.find((id) => id !== user.id) ?? user.id;
          pms.set(other, [...(pms.get(other) ?? []), unread.id]);
        } else {
          huddles.set(unread.dmKey!, [...(huddles.get(unread.dmKey!) ?? []), unread.id]);
        }
        count++;
      }
      if (isUnreadMention(unread.flags, unread.type === 'stream' && isMuted(unread.streamId!, unread.topic))) mentions.push(unread.id);
    }
    // Each list in the reference's order: by other user, by (channel, topic ignoring case) as the
    // client sees the topic, and by the user IDs string compared as text.
    const unread_msgs: UnreadMessages = {
      count,
      pms: [...pms].sort(([a], [b]) => a - b).map(([other, ids]) => ({ other_user_id: other, sender_id: other, unread_message_ids: ids })),
      streams: [...streams.values()].sort((a, b) => a.stream_id - b.stream_id || byText(a.topic.toLowerCase(), b.topic.toLowerCase())),
      huddles: [...huddles].sort(([a], [b]) => byText(a, b)).map(([key, ids]) => ({ user_ids_string: key, unread_message_ids: ids })),
      mentions,
      old_unreads_missing: false,
    };
    return { max_message_id: maxMessageId, unread_msgs };
  },
});

/** Plain text order (code units), as the reference sorts its keys, not the locale's. */
const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
