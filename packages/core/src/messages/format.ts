import { avatarUrl } from '../format/avatar.js';
import { apiEmail } from '../format/user.js';
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
): Record<string, unknown> {
  const sender = view.users.get(message.senderId);
  const record: Record<string, unknown> = {
    id: message.id,
    sender_id: message.senderId,
    sender_full_name: sender?.fullName ?? '',
    sender_email: sender ? apiEmail(view.realm, sender) : '',
    sender_realm_str: view.realm.subdomain,
    type: message.type,
    ...(message.type === 'stream' ? { stream_id: message.streamId } : {}),
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
export function optionDependentFields(message: Message, view: MessageView, record: Readonly<Record<string, unknown>>) {
  const sender = view.users.get(message.senderId);
  const emptyTopicName: Record<string, unknown> = { subject: message.type === 'stream' ? topicForClient(message.topic, true) : '' };
  if ('edit_history' in record) emptyTopicName.edit_history = visibleEditHistory(message.editHistory, editHistoryPolicy(view.realm), true);
  return {
    rawMarkdown: { content: message.content, content_type: 'text/x-markdown' },
    clientGravatar: { avatar_url: sender ? avatarUrl(view.realm, sender, true) : null },
    emptyTopicName,
  };
}

function displayRecipient(message: Message, view: MessageView): unknown {
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
export function formatSubmessage(s: Submessage): Record<string, unknown> {
  return { id: s.id, message_id: s.messageId, sender_id: s.senderId, msg_type: s.msgType, content: s.content };
}
