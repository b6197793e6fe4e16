import { avatarUrl } from '../format/avatar.js';
import { apiEmail } from '../format/user.js';
import type { EditHistoryEntry } from '../storage/message-types.js';
import type { Message, Reaction, Realm, Submessage, User } from '../storage/types.js';
import { editHistoryPolicy, visibleEditHistory } from './edit-history.js';
import { flagNames } from './flags.js';
import { topicForClient } from './normalize.js';

export interface MessageView {
  realm: Realm;
  /** Users the message refers to (sender, direct participants), by ID. */
  users: ReadonlyMap<number, User>;
  /** Channel names by ID. */
  streamNames: ReadonlyMap<number, string>;
  /** Numbers of direct conversations by key (see MessageStore.dmConversationId). */
  dmConversationIds: ReadonlyMap<string, number>;
  applyMarkdown: boolean;
  clientGravatar: boolean;
  /** The client handles "" topics (allow_empty_topic_name / empty_topic_name). */
  emptyTopicName: boolean;
  topicLinks(topic: string): Array<{ text: string; url: string }>;
}

/** A participant of a direct message, as `display_recipient` lists them. */
export interface ApiDisplayRecipient {
  id: number;
  email: string;
  full_name: string;
  is_mirror_dummy: boolean;
}

/** One emoji reaction on a message. */
export interface ApiReaction {
  emoji_name: string;
  emoji_code: string;
  /** `unicode_emoji`, `realm_emoji` or `zulip_extra_emoji`. */
  reaction_type: string;
  user_id: number;
}

/** A submessage (widget state, such as a poll's votes) attached to a message. */
export interface ApiSubmessage {
  id: number;
  message_id: number;
  sender_id: number;
  msg_type: string;
  /** JSON text, as the widget sent it. */
  content: string;
}

/** A link the realm's linkifiers find in a topic name. */
export interface ApiTopicLink {
  text: string;
  url: string;
}

/**
 * A message as GET /messages, GET /messages/{id} and `message` events carry it (SHAPES.md 5.1).
 * Channel messages have `stream_id` and a topic in `subject`; direct messages list their
 * participants in `display_recipient`.
 */
export interface ApiMessage {
  id: number;
  sender_id: number;
  sender_full_name: string;
  sender_email: string;
  sender_realm_str: string;
  type: 'stream' | 'private';
  /** Channel messages only. */
  stream_id?: number;
  /** The channel's name, or the participants of a direct message. */
  display_recipient: string | ApiDisplayRecipient[];
  /** The topic; "" for direct messages. */
  subject: string;
  topic_links: ApiTopicLink[];
  recipient_id: number;
  /** UNIX seconds. */
  timestamp: number;
  client: string;
  /** HTML, or the Markdown source when the client asked for it (`apply_markdown` false). */
  content: string;
  content_type: 'text/html' | 'text/x-markdown';
  is_me_message: boolean;
  avatar_url: string | null;
  reactions: ApiReaction[];
  submessages: ApiSubmessage[];
  /** The viewer's flags (`read`, `starred`, …); GET /messages only. */
  flags?: string[];
  last_edit_timestamp?: number;
  last_moved_timestamp?: number;
  /** Present when the message was edited or moved and the realm shows edit history. */
  edit_history?: EditHistoryEntry[];
}

/**
 * A message record (SHAPES.md 5.1) with its reactions and submessages (in ID order). `flags`
 * is included when given (GET /messages).
 */
export function formatMessage(
  message: Message,
  view: MessageView,
  reactions: readonly Reaction[],
  submessages: readonly Submessage[],
  flags?: number,
): ApiMessage {
  const sender = view.users.get(message.senderId);
  const record: ApiMessage = {
    id: message.id,
    sender_id: message.senderId,
    sender_full_name: sender?.fullName ?? '',
    sender_email: sender ? apiEmail(view.realm, sender) : '',
    sender_realm_str: view.realm.subdomain,
    type: message.type,
    ...(message.type === 'stream' ? { stream_id: message.streamId! } : {}),
    display_recipient: displayRecipient(message, view),
    subject: message.type === 'stream' ? topicForClient(message.topic, view.emptyTopicName) : '',
    topic_links: message.type === 'stream' ? view.topicLinks(message.topic) : [],
    // Opaque and stable per conversation: channels and direct conversations never collide.
    recipient_id: message.type === 'stream' ? message.streamId! * 2 : (view.dmConversationIds.get(message.dmKey!) ?? 0) * 2 + 1,
    timestamp: message.dateSent,
    client: message.sendingClient,
    content: view.applyMarkdown ? message.renderedContent : message.content,
    content_type: view.applyMarkdown ? 'text/html' : 'text/x-markdown',
    is_me_message: message.isMeMessage,
    avatar_url: sender ? avatarUrl(view.realm, sender, view.clientGravatar) : null,
    reactions: reactions.map((r) => ({
      emoji_name: r.emojiName,
      emoji_code: r.emojiCode,
      reaction_type: r.reactionType,
      user_id: r.userId,
    })),
    submessages: submessages.map(formatSubmessage),
  };
  if (flags !== undefined) record.flags = flagNames(flags);
  if (message.lastEditTime !== null) record.last_edit_timestamp = message.lastEditTime;
  if (message.lastMovedTime !== null) record.last_moved_timestamp = message.lastMovedTime;
  const history = visibleEditHistory(message.editHistory, editHistoryPolicy(view.realm), view.emptyTopicName);
  if (history) record.edit_history = history;
  return record;
}

/**
 * The fields of `formatMessage`'s record that each queue option changes, as they are with that
 * option turned the other way from `view` (which has apply_markdown on, client_gravatar and
 * empty_topic_name off): what a `message` event carries so that every queue's version is the
 * one record with these fields put over it. Computed here, beside the record they vary, so the
 * two cannot drift; a field added to the record that depends on an option belongs here too.
 */
export function optionDependentFields(message: Message, view: MessageView, record: Readonly<ApiMessage>) {
  const sender = view.users.get(message.senderId);
  const emptyTopicName: Partial<ApiMessage> = { subject: message.type === 'stream' ? topicForClient(message.topic, true) : '' };
  if ('edit_history' in record) emptyTopicName.edit_history = visibleEditHistory(message.editHistory, editHistoryPolicy(view.realm), true) ?? undefined;
  return {
    rawMarkdown: { content: message.content, content_type: 'text/x-markdown' as const },
    clientGravatar: { avatar_url: sender ? avatarUrl(view.realm, sender, true) : null },
    emptyTopicName,
  };
}

function displayRecipient(message: Message, view: MessageView): string | ApiDisplayRecipient[] {
  if (message.type === 'stream') return view.streamNames.get(message.streamId!) ?? '';
  return (message.dmKey ?? '')
    .split(',')
    .map(Number)
    .map((id) => {
      const user = view.users.get(id);
      return {
        id,
        email: user ? apiEmail(view.realm, user) : '',
        full_name: user?.fullName ?? '',
        is_mirror_dummy: false,
      };
    });
}


/** A submessage as messages and `submessage` events carry it (the reference's get_raw_db_rows). */
export function formatSubmessage(s: Submessage): ApiSubmessage {
  return { id: s.id, message_id: s.messageId, sender_id: s.senderId, msg_type: s.msgType, content: s.content };
}
