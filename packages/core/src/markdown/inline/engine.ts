/**
 * The inline pass: the reference's model, kept because its dialect is defined by it. Patterns
 * run one after another in priority order over the whole text of a paragraph (or heading, list
 * item, table cell); each match is parked in the stash and replaced by a placeholder, and an
 * element's own text is then run through the patterns after the one that made it. So a code
 * span claims its text before `**` is looked for, and `**` can still enclose a mention.
 */
import type { Searcher } from '../linkifier-match.js';
import type { RenderContext } from '../types.js';
import type { InlineNode, InlineStash } from './nodes.js';

/** What the inline pass reports about the message as it goes. */
export interface InlineFindings {
  mentionedUserIds: Set<number>;
  mentionedGroupIds: Set<number>;
  wildcards: { stream: boolean; topic: boolean };
}

/** Everything a pattern may consult. */
export interface InlineEnv {
  ctx: RenderContext;
  findings: InlineFindings;
  stash: InlineStash;
  /** The text is inside a quote: mentions there are silent (they quote, not notify). */
  inQuote: boolean;
}

/** A pattern's verdict on one regex match. */
export interface InlineMatch {
  node: InlineNode;
  /** The replaced range when it is not the whole match (a linkifier keeps its delimiters). */
  start?: number;
  end?: number;
}

/** One inline construct. */
export interface InlinePattern {
  name: string;
  /** A global regex (or one like it) searched from `lastIndex`; lookbehinds see the real preceding text. */
  regex: Searcher;
  /**
   * Turns a match into a node, or null when the match does not count (an unknown user): the
   * search then goes on after it. `nested` runs the lower-priority patterns over a text.
   */
  handle(match: RegExpExecArray, env: InlineEnv, nested: (text: string) => string): InlineMatch | null;
}

/** Runs `patterns` from `from` onwards over `text`; returns the text with placeholders. */
export function runPatterns(text: string, patterns: readonly InlinePattern[], env: InlineEnv, from = 0): string {
  let data = text;
  for (let i = from; i < patterns.length; i++) {
    const pattern = patterns[i]!;
    const nested = (inner: string) => runPatterns(inner, patterns, env, i + 1);
    let position = 0;
    while (position <= data.length) {
      pattern.regex.lastIndex = position;
      const match = pattern.regex.exec(data);
      if (!match) break;
      const found = pattern.handle(match, env, nested);
      if (!found) {
        position = match.index + Math.max(match[0].length, 1);
        continue;
      }
      const start = found.start ?? match.index;
      const end = found.end ?? match.index + match[0].length;
      const placeholder = env.stash.add(found.node, data.slice(start, end));
      data = data.slice(0, start) + placeholder + data.slice(end);
      position = start + placeholder.length;
    }
  }
  return data;
}
