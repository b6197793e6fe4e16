import { err, ok, type Result } from 'neverthrow';
import type { ServerConfig } from '../config.js';
import { type ApiError, badRequest } from '../errors.js';
import { exceedsCodePoints, firstCodePoints } from '../text/length.js';
import { unprintablePosition } from '../text/printable.js';

/** The display name of the empty topic; clients without empty_topic_name see it for "". */
export const EMPTY_TOPIC_DISPLAY_NAME = 'general chat';

/**
 * Message content as stored: trailing whitespace and leading newlines removed, refused when
 * empty or holding NUL bytes, and cut to max_message_length code points with the reference's
 * marker.
 */
export function normalizeContent(content: string, config: ServerConfig): Result<string, ApiError> {
  // The reference's normalize_body: trailing whitespace and leading blank lines go (leading
  // spaces stay: they can be Markdown).
  const text = content.trimEnd().replace(/^\n+/, '');
  if (text === '') return err(badRequest('Message must not be empty'));
  if (text.includes('\0')) return err(badRequest('Message must not contain null bytes'));
  if (!exceedsCodePoints(text, config.maxMessageLength)) return ok(text);
  const marker = '\n[message truncated]';
  return ok(firstCodePoints(text, config.maxMessageLength - marker.length) + marker);
}

/**
 * A channel topic as stored: stripped, "(no topic)" and the empty topic's display name read as
 * "", NUL bytes refused, and cut to max_topic_length code points with "…".
 */
export function normalizeTopic(topic: string, config: ServerConfig): Result<string, ApiError> {
  let text = topic.trim();
  if (text.includes('\0')) return err(badRequest('Topic must not contain null bytes'));
  if (text === '(no topic)' || text === EMPTY_TOPIC_DISPLAY_NAME) text = '';
  return ok(truncateTopic(text, config));
}

/**
 * The topic of a message being sent, scheduled, edited or moved: as normalizeTopic, and refused
 * with the reference's check_stream_topic text when it holds a control character, a lone
 * surrogate or a noncharacter (newlines and ANSI escapes included). Lookups by topic (mark as
 * read, user topics, topic deletion) use normalizeTopic: the reference checks only new topics.
 */
export function normalizeNewTopic(topic: string, config: ServerConfig): Result<string, ApiError> {
  const text = topic.trim();
  if (text.includes('\0')) return err(badRequest('Topic must not contain null bytes'));
  const position = unprintablePosition(text);
  if (position > 0) return err(badRequest(`Invalid character in topic, at position ${position}!`));
  return normalizeTopic(text, config);
}

/** The reference's truncate_topic: cut to max_topic_length code points, ending in "…". */
export function truncateTopic(topic: string, config: ServerConfig): string {
  if (!exceedsCodePoints(topic, config.maxTopicLength)) return topic;
  return `${firstCodePoints(topic, config.maxTopicLength - 1)}…`;
}

/** How a stored topic is shown to a client: "" becomes the display name unless it handles "". */
export const topicForClient = (topic: string, emptyTopicName: boolean) =>
  topic === '' && !emptyTopicName ? EMPTY_TOPIC_DISPLAY_NAME : topic;

/** The key of a direct conversation: its participants' IDs, sorted and comma-joined. */
export const dmKeyOf = (userIds: Iterable<number>) => [...new Set(userIds)].sort((a, b) => a - b).join(',');
