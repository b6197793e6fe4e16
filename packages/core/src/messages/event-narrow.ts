/**
 * Whether a `message` event matches a queue's narrow (register's `narrow`, SHAPES.md 2.1).
 * Evaluated on the event as published, so it needs no storage: names and emails are read
 * from the message record. Operators that need history (search, has:reaction) let it through,
 * erring towards delivering, as a client filters again.
 */
import type { ApiEvent } from '../events/types.js';
import { EMPTY_TOPIC_DISPLAY_NAME } from './normalize.js';

type Pair = readonly [string, string];

export function messageMatchesNarrow(narrow: readonly Pair[], event: ApiEvent): boolean {
  const message = event.message as Record<string, unknown>;
  const flags = (event.flags as string[] | undefined) ?? [];
  return narrow.every(([rawOperator, operand]) => {
    const negated = rawOperator.startsWith('-');
    const operator = negated ? rawOperator.slice(1) : rawOperator;
    const result = termMatches(operator, operand, message, flags);
    return negated ? !result : result;
  });
}

function termMatches(operator: string, operand: string, message: Record<string, unknown>, flags: string[]): boolean {
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
          return true;
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
    default:
      return true;
  }
}

const topicKey = (topic: string) => {
  const key = topic.trim().toLowerCase();
  return key === EMPTY_TOPIC_DISPLAY_NAME || key === '(no topic)' ? '' : key;
};
