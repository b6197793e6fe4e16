/**
 * Events about messages and their conversations (SHAPES.md 4.1–4.9). Field order is the order
 * the publishers build them in, which is the order clients receive them in.
 */

import type { formatMessage } from '../../messages/format.js';

/** A formatted message record (SHAPES.md 5.1), as `formatMessage` builds it. */
export type MessageRecord = ReturnType<typeof formatMessage>;

/** A new message, with the recipient's flags; `local_message_id` only on the sender's queue that sent it. */
export interface MessageEvent {
  type: 'message';
  message: MessageRecord;
  flags: string[];
  local_message_id?: string;
}

/** A message edited or moved (SHAPES.md 4.3); the optional groups are present together. */
export interface UpdateMessageEvent {
  type: 'update_message';
  user_id: number;
  rendering_only: boolean;
  message_id: number;
  message_ids: number[];
  edit_timestamp: number;
  stream_name?: string;
  stream_id?: number;
  orig_content?: string;
  orig_rendered_content?: string;
  content?: string;
  rendered_content?: string;
  is_me_message?: boolean;
  propagate_mode?: string;
  orig_subject?: string;
  subject?: string;
  topic_links?: Array<{ text: string; url: string }>;
  new_stream_id?: number;
  flags: string[];
}

/** Where deleted messages were: a channel topic or a direct conversation. */
export type DeletedMessagesPlace = { message_type: 'stream'; stream_id: number; topic: string } | { message_type: 'private' };

/** Messages deleted: `message_ids` under bulk_message_deletion, one event per `message_id` otherwise. */
export type DeleteMessageEvent = { type: 'delete_message' } & DeletedMessagesPlace & ({ message_ids: number[] } | { message_id: number });

/** Where a message that became unread is filed in unread_msgs. */
export type UnreadMessageDetails =
  | { type: 'stream'; stream_id: number; topic: string; unmuted_stream_msg: boolean; mentioned?: true }
  | { type: 'private'; user_ids: number[]; mentioned?: true };

/** A flag (read, starred, …) added to or removed from some of the user's messages; `all` when every message was marked. */
export interface UpdateMessageFlagsEvent {
  type: 'update_message_flags';
  op: 'add' | 'remove';
  /** The deprecated name of `op`, still sent. */
  operation: 'add' | 'remove';
  flag: string;
  messages: number[];
  all: boolean;
  /** Present when messages become unread. */
  message_details?: Record<string, UnreadMessageDetails>;
}

/** An emoji reaction added or removed by `user_id`. */
export interface ReactionEvent {
  type: 'reaction';
  op: 'add' | 'remove';
  user_id: number;
  message_id: number;
  emoji_name: string;
  emoji_code: string;
  reaction_type: string;
}

/** A widget's submessage (a poll vote, a to-do change) on `message_id`. */
export interface SubmessageEvent {
  type: 'submessage';
  msg_type: string;
  message_id: number;
  submessage_id: number;
  sender_id: number;
  content: string;
}

/** A typist or recipient in a typing event. */
export interface TypingPerson {
  user_id: number;
  email: string;
}

/** Someone started or stopped typing in a channel topic or a direct conversation. */
export type TypingEvent =
  | { type: 'typing'; op: 'start' | 'stop'; message_type: 'stream'; sender: TypingPerson; stream_id: number; topic: string }
  | { type: 'typing'; op: 'start' | 'stop'; message_type: 'direct'; sender: TypingPerson; recipients: TypingPerson[] };

/** Someone started or stopped editing `message_id`. */
export interface TypingEditMessageEvent {
  type: 'typing_edit_message';
  op: 'start' | 'stop';
  sender_id: number;
  message_id: number;
  recipient: { type: 'direct'; user_ids: number[] } | { type: 'channel'; channel_id: number; topic: string };
}

/** The user's visibility policy for a topic (muted, unmuted, followed, inherit) changed. */
export interface UserTopicEvent {
  type: 'user_topic';
  stream_id: number;
  topic_name: string;
  last_updated: number;
  visibility_policy: number;
}

/** The legacy list of muted topics: `[channel name, topic, last_updated]`. */
export interface MutedTopicsEvent {
  type: 'muted_topics';
  muted_topics: Array<[string, string, number]>;
}
