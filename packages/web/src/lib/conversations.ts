/** Recent conversations: messages grouped by conversation, the most recently active first. */
import { dmPartners } from '../narrow/matches';
import type { Message } from '../stores/types';

export interface Conversation {
  key: string;
  kind: 'channel' | 'dm';
  channelId?: number;
  topic?: string;
  userIds?: number[];
  lastId: number;
  lastTimestamp: number;
  senders: number[];
}

export function groupConversations(messages: readonly Message[], ownId: number): Conversation[] {
  const conversations = new Map<string, Conversation>();
  for (const message of messages) {
    const partners = message.type === 'private' ? dmPartners(message, ownId) : [];
    const key = message.type === 'stream' ? `c${message.stream_id}:${message.subject.toLowerCase()}` : `d${partners.join(',')}`;
    const known = conversations.get(key);
    const conversation: Conversation = known ?? {
      key,
      kind: message.type === 'stream' ? 'channel' : 'dm',
      ...(message.type === 'stream' ? { channelId: message.stream_id!, topic: message.subject } : { userIds: partners }),
      lastId: 0,
      lastTimestamp: 0,
      senders: [],
    };
    if (message.id > conversation.lastId) {
      conversation.lastId = message.id;
      conversation.lastTimestamp = message.timestamp;
    }
    if (!conversation.senders.includes(message.sender_id)) conversation.senders.push(message.sender_id);
    conversations.set(key, conversation);
  }
  return [...conversations.values()].sort((a, b) => b.lastId - a.lastId);
}
