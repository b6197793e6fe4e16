/**
 * The text of a reminder, after the reference's get_reminder_formatted_content: what was asked
 * for (with the note, FL 415), who said it where with a link to the message, and the message
 * quoted (polls and to-do lists are named, not quoted). It is computed when the reminder is
 * created (GET /reminders shows it) and again at delivery while the user can still read the
 * message; otherwise the stored text is sent without its quote (quoteless).
 */
import { err, ok, type Result } from 'neverthrow';
import type { ServerConfig } from '../config.js';
import { type ApiError, badRequest } from '../errors.js';
import { EMPTY_TOPIC_DISPLAY_NAME } from '../messages/normalize.js';
import { channelMessageUrl, channelTopicWithPath, directMessageNearUrl } from '../messages/urls.js';
import type { Message, Realm, Stream, User } from '../storage/types.js';
import { escapeLinkText, listOf, silentMention, unusedFence } from '../system-bots/syntax.js';

/** The reference's normalize_note_text: trimmed like message content, then limited in length. */
export function normalizeNote(note: string, config: ServerConfig): Result<string, ApiError> {
  const text = note.trimEnd().replace(/^\n+/, '');
  if ([...text].length > config.maxReminderNoteLength) {
    return err(badRequest(`Maximum reminder note length: ${config.maxReminderNoteLength} characters`));
  }
  return ok(text);
}

/** The message a reminder is about, with what its text names. */
export interface ReminderSubject {
  message: Message;
  sender: Pick<User, 'id' | 'fullName'>;
  /** The channel of a channel message. */
  stream?: Pick<Stream, 'id' | 'name'>;
  /** The participants of a direct message, by ID. */
  participants?: ReadonlyArray<Pick<User, 'id' | 'fullName'>>;
}

/** The reminder's text for `user`, who may read the message (the caller checked). */
export function reminderContent(realm: Realm, user: User, subject: ReminderSubject, note: string | null, config: ServerConfig): string {
  const { message, sender } = subject;
  const noted = note ? ` Note:\n > ${note}` : '';
  const mention = silentMention(sender);
  const widget = message.content.startsWith('/poll') ? 'poll' : message.content.startsWith('/todo') ? 'todo list' : undefined;
  let intro: string;
  let header: string;
  if (message.type === 'stream') {
    const stream = subject.stream!;
    const url = channelMessageUrl(realm, stream, message.topic, message.id);
    const topicText = message.topic === '' ? EMPTY_TOPIC_DISPLAY_NAME : message.topic;
    const where = `[#${escapeLinkText(stream.name)} > ${escapeLinkText(topicText)}](${channelTopicWithPath(stream, message.topic, message.id)})`;
    intro = `You requested a reminder for the following message.${noted}`;
    header = widget ? `${mention} [sent](${url}) a ${widget} in ${where}.` : `${mention} [said](${url}) in ${where}:`;
  } else {
    const participants = subject.participants ?? [];
    const url = directMessageNearUrl(realm, participants.map((p) => p.id), message.id);
    const others = participants.filter((p) => p.id !== sender.id);
    intro = `You requested a reminder for the following direct message.${noted}`;
    if (others.length === 0 && sender.id === user.id) {
      header = widget ? `You [sent](${url}) yourself a ${widget}.` : `You [sent](${url}) a note to yourself:`;
    } else {
      const to = listOf((others.length > 0 ? others : [sender]).map(silentMention));
      header = widget ? `${mention} [sent](${url}) a ${widget} to ${to}.` : `${mention} [said](${url}) to ${to}:`;
    }
  }
  const content = `${intro}\n\n${header}`;
  if (widget) return content;
  const fence = unusedFence(message.content);
  const wrapper = `${content}\n${fence}quote\n\n${fence}`;
  // Cut so that the whole reminder fits a message, with the reference's marker.
  const room = config.maxMessageLength - [...wrapper].length;
  const points = [...message.content];
  const marker = '\n[message truncated]';
  const quoted = points.length > room ? points.slice(0, Math.max(0, room - marker.length)).join('') + marker : message.content;
  return `${content}\n${fence}quote\n${quoted}\n${fence}`;
}

/**
 * A stored reminder text without its quote, for a message the user can no longer read: it
 * still says who wrote where and links it, but never shows the content. The quote follows the
 * first header line ending in ":" and a fence; anything from the first such match on is cut,
 * so a note that happens to contain one only shortens the text further.
 */
export function quoteless(content: string): string {
  const match = /:\n`{3,}quote\n/.exec(content);
  return match ? `${content.slice(0, match.index)}.` : content;
}
