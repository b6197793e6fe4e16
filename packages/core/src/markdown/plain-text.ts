/**
 * The renderer's shortcut for prose with nothing to render: most chat messages ("hello", "ok,
 * thanks!") are one line of words, and parsing them with markdown-it and every inline pattern
 * costs more than the rest of a send's own work. Content this recognizes renders, by
 * construction and as tests/core/markdown-plain-text.test.ts checks against the full renderer
 * (every golden case and a fuzz of strings over this alphabet and its neighbours), exactly as
 * the full render does: one paragraph of the text, no links, mentions or emoji.
 */
import type { Linkifier, RenderedMessage } from './types.js';

/**
 * One line of ASCII letters, digits, spaces and `, . ! ? '`, so: no Markdown or HTML syntax,
 * nothing to escape, no emoji, emoticon, mention, timestamp or math. Besides, a `.` is followed
 * by a space or ends the text, so no bare link (`example.com`), and the text does not open with
 * a space (indented code) or a number and a `.` (an ordered list).
 */
const PLAIN = /^(?! |\d+\.)(?:[A-Za-z0-9 ,!?']|\.(?= |$))+$/;

/**
 * The rendering of `content` when it is plain prose in a realm without linkifiers (a
 * linkifier's pattern may match any word), else undefined: then only the full render knows.
 */
export function renderPlainText(content: string, linkifiers: readonly Linkifier[] | undefined): RenderedMessage | undefined {
  if ((linkifiers !== undefined && linkifiers.length > 0) || !PLAIN.test(content)) return undefined;
  return {
    html: `<p>${content}</p>`,
    mentionedUserIds: new Set(),
    mentionedGroupIds: new Set(),
    wildcards: { stream: false, topic: false },
    hasLink: false,
    hasImage: false,
    hasAttachment: false,
    attachmentPathIds: [],
    isMeMessage: false,
  };
}
