/**
 * Who is typing where. A conversation key (`topic:<channel>:<topic>` or `dm:<ids>`) maps to the
 * typists and when each indication expires (the server stops resending after a pause, and a
 * "stop" can be lost with a closed tab).
 */
import { dmKey } from './unread';

export type TypingState = ReadonlyMap<string, ReadonlyMap<number, number>>;

/** How long a "start" holds without a renewal, in ms (the reference renews every 10 s). */
export const TYPING_EXPIRY_MS = 15_000;

export function topicConversation(channelId: number, topic: string): string {
  return `topic:${channelId}:${topic.toLowerCase()}`;
}

export function dmConversation(userIds: readonly number[], ownId: number): string {
  return `dm:${dmKey(userIds, ownId)}`;
}

export interface TypingEventLike {
  op: 'start' | 'stop';
  message_type: 'stream' | 'direct' | 'private';
  sender: { user_id: number };
  stream_id?: number;
  topic?: string;
  recipients?: Array<{ user_id: number }>;
}

export function applyTyping(state: TypingState, event: TypingEventLike, ownId: number, now: number): TypingState {
  const key =
    event.message_type === 'stream'
      ? topicConversation(event.stream_id!, event.topic ?? '')
      : dmConversation([...(event.recipients ?? []).map((person) => person.user_id)], ownId);
  const typists = new Map(state.get(key) ?? []);
  if (event.op === 'start') typists.set(event.sender.user_id, now + TYPING_EXPIRY_MS);
  else typists.delete(event.sender.user_id);
  const next = new Map(state);
  if (typists.size > 0) next.set(key, typists);
  else next.delete(key);
  return next;
}

/** The users typing in a conversation now, oneself left out. */
export function typistsIn(state: TypingState, key: string, ownId: number, now: number): number[] {
  return [...(state.get(key) ?? new Map<number, number>()).entries()].filter(([id, until]) => id !== ownId && until > now).map(([id]) => id);
}
