/**
 * Whether a `message` event matches a queue's narrow (register's `narrow`, SHAPES.md 2.1).
 * Evaluated on the event as published, so it needs no storage: names and emails are read
 * from the message record. Operators it cannot decide without storage (search, has:reaction,
 * is:followed, is:muted) let the message through, negated or not, erring towards delivering, as
 * a client filters again.
 */
import type { MessageEvent, MessageRecord } from '../events/union/messages.js';
import { directMentionMarkup } from '../storage/types.js';
import { EMPTY_TOPIC_DISPLAY_NAME } from './normalize.js';

type Pair = readonly [string, string];

export function messageMatchesNarrow(narrow: readonly Pair[], event: MessageEvent): boolean {
  const { message, flags } = event;
  return narrow.every(([rawOperator, operand]) => {
    const negated = rawOperator.startsWith('-');
    const operator = negated ? rawOperator.slice(1) : rawOperator;
    const result = termMatches(operator, operand, message, flags);
    if (result === undefined) return true;
    return negated ? !result : result;
  });
}

/** Whether the term matches; undefined when that cannot be told from the event. */
function termMatches(operator: string, operand: string, message: MessageRecord, flags: string[]): boolean | undefined {
  const isStream = message.type === 'stream';
  const lower = operand.toLowerCase();
  switch (operator) {
    case 'stream':
    case 'channel':
      return isStream && (String(message.stream_id) === operand || String(message.display_recipient).toLowerCase() === lower);
    case 'topic':
    case 'subject':
      // The empty topic reaches a queue as "" or as its display name, and a narrow may name it either way.
      return isStream && topicKey(String(message.subject)) === topicKey(operand);
    case 'sender':
      return String(message.sender_id) === operand || String(message.sender_email).toLowerCase() === lower;
    case 'is':
      switch (operand) {
        case 'dm':
        case 'private':
          return !isStream;
        case 'starred':
          return flags.includes('starred');
        case 'mentioned':
          return flags.includes('mentioned') || flags.includes('wildcard_mentioned');
        case 'alerted':
          return flags.includes('has_alert_word');
        case 'unread':
          return !flags.includes('read');
        case 'resolved':
          return isStream && String(message.subject).startsWith('✔ ');
        default:
          // followed, muted: the reader's topic policies are not in the event.
          return undefined;
      }
    case 'dm':
    case 'pm-with': {
      if (isStream) return false;
      const wanted = new Set(operand.split(',').map((part) => part.trim().toLowerCase()));
      const people = (message.display_recipient as Array<{ id: number; email: string }>) ?? [];
      const others = people.filter((p) => !wanted.has(String(p.id)) && !wanted.has(p.email.toLowerCase()));
      // The narrow names everyone but (possibly) the viewer.
      return others.length <= 1 && people.length - others.length === wanted.size;
    }
    case 'dm-including':
    case 'group-pm-with': {
      if (isStream) return false;
      const people = (message.display_recipient as Array<{ id: number; email: string }>) ?? [];
      return people.some((p) => String(p.id) === operand || p.email.toLowerCase() === lower);
    }
    case 'id':
      return String(message.id) === operand;
    case 'mentions':
      // Rendered content (apply_markdown queues) shows the direct mention; Markdown source cannot
      // tell a user's mention from a name, so it is let through. The mentioned user's flag is not
      // in the event, so a shown mention counts.
      if (!/^[0-9]+$/.test(operand)) return false;
      if (message.content_type !== 'text/html') return undefined;
      return String(message.content).includes(directMentionMarkup(Number(operand)));
    default:
      return undefined;
  }
}

const topicKey = (topic: string) => {
  const key = topic.trim().toLowerCase();
  return key === EMPTY_TOPIC_DISPLAY_NAME || key === '(no topic)' ? '' : key;
};
