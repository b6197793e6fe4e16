/** The Markdown the reference's notices use to name people, channels and topics. */
import type { User } from '../storage/types.js';

/** silent_mention_syntax_for_user: names a user without notifying them. */
export const silentMention = (user: Pick<User, 'fullName' | 'id'>) => `@_**${user.fullName}|${user.id}**`;

/** A channel link: `#**name**`. */
export const channelLink = (name: string) => `#**${name}**`;

/** A topic link: `#**channel>topic**`. */
export const topicLink = (channel: string, topic: string) => `#**${channel}>${topic}**`;

/** Characters that break `#**channel>topic**` syntax, escaped as the reference's topic_link_util does. */
const LINK_ESCAPES: Record<string, string> = { '`': '&#96;', '>': '&gt;', '*': '&#42;', '&': '&amp;', $$: '&#36;&#36;', '[': '&#91;', ']': '&#93;' };
const BREAKS_LINK = /[`>*&[\]]|\$\$/g;
export const escapeLinkText = (text: string) => text.replace(BREAKS_LINK, (c) => LINK_ESCAPES[c] ?? c);

/** will_produce_broken_stream_topic_link: the name cannot sit inside `#**…**` syntax. */
export const breaksLinkSyntax = (text: string) => text.search(BREAKS_LINK) >= 0;

/** "A", "A and B", "A, B, and C": the English list the reference's clients show. */
export function listOf(items: readonly string[]): string {
  if (items.length <= 2) return items.join(' and ');
  return `${items.slice(0, -1).join(', ')}, and ${items.at(-1)}`;
}

/** A fence longer than any fence line in `content`, so a quote cannot be closed from inside. */
export function unusedFence(content: string): string {
  let length = 3;
  for (const match of content.matchAll(/^ {0,3}(`{3,})/gm)) length = Math.max(length, match[1]!.length + 1);
  return '`'.repeat(length);
}

/** `<time:…>`: a moment every reader sees in their own time zone (datetime_to_global_time). */
export const globalTime = (unixSeconds: number) => `<time:${new Date(unixSeconds * 1000).toISOString().replace(/\.\d{3}Z$/, '+00:00')}>`;
