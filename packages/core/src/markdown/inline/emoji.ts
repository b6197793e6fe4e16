/**
 * Emoji: `:name:` syntax, emoticons like `:)` (when the sender translates them), and emoji
 * typed as characters. All render as the reference's
 * `<span class="emoji emoji-1f642" role="img" …>:smile:</span>` (or an `<img>` for custom
 * emoji), so every client shows the realm's emoji set rather than the platform's.
 */
import type { InlineEnv, InlinePattern } from './engine.js';
import type { InlineNode } from './nodes.js';

/** The `<span>` for a unicode emoji; `display` is `:name:`. */
export function unicodeEmojiNode(code: string, display: string): InlineNode {
  const title = display.slice(1, -1).replace(/_/g, ' ');
  const attrs = { 'aria-label': title, class: `emoji emoji-${code}`, role: 'img', title };
  return { kind: 'element', tag: 'span', attrs, content: display, literal: true };
}

function imageEmojiNode(url: string, display: string): InlineNode {
  const attrs = { alt: display, class: 'emoji', src: url, title: display.slice(1, -1).replace(/_/g, ' ') };
  return { kind: 'element', tag: 'img', attrs, content: '', literal: true };
}

function emojiNode(name: string, env: InlineEnv): InlineNode | null {
  const found = env.ctx.emojiByName?.(name) ?? null;
  if (!found) return null;
  return found.kind === 'unicode' ? unicodeEmojiNode(found.code, `:${name}:`) : imageEmojiNode(found.url, `:${name}:`);
}

/** `:name:`. An unknown name stays as typed, and its colons cannot start another emoji. */
export const emojiName: InlinePattern = {
  name: 'emoji',
  regex: /:[\p{L}\p{N}_\-+]+:/gu,
  handle: (match, env) => ({ node: emojiNode(match[0].slice(1, -1), env) ?? { kind: 'text', text: match[0] } }),
};

// Emoticon → emoji name. The reference's table (its emoji names: 1f642 is "smile").
const EMOTICONS: Record<string, string> = {
  ':)': 'smile', '(:': 'smile', ':(': 'frown', '<3': 'heart', ':|': 'neutral', ':/': 'confused',
  ';)': 'wink', ':D': 'grinning', ':o': 'open_mouth', ':O': 'open_mouth', ':p': 'stuck_out_tongue',
  ':P': 'stuck_out_tongue',
};

// An emoticon stands alone: between spaces, line ends or punctuation, never inside a word.
const TERMINALS = String.raw`,.;?!()\[\] "'\n\t`;
const alternatives = Object.keys(EMOTICONS)
  .map((e) => e.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&'))
  .join('|');

/** `:)` and friends, only for senders with `translate_emoticons`. */
export const emoticon: InlinePattern = {
  name: 'translate_emoticons',
  regex: new RegExp(`(?<![^${TERMINALS}])(?:${alternatives})(?![^${TERMINALS}])`, 'g'),
  handle: (match, env) => {
    if (!env.ctx.translateEmoticons) return null;
    const name = EMOTICONS[match[0]]!;
    const found = env.ctx.emojiByName?.(name) ?? null;
    return found?.kind === 'unicode' ? { node: unicodeEmojiNode(found.code, `:${name}:`) } : null;
  },
};

// A possible emoji sequence (Unicode TR51's regex): flags, keycaps, modifiers, tags and ZWJ joins.
const ELEMENT = String.raw`(?:\p{RI}\p{RI}|\p{Emoji}(?:\p{Emoji_Modifier}|\uFE0F\u20E3?|[\u{E0020}-\u{E007E}]+\u{E007F})?)`;
// A lone character whose default look is text (digits, ↔), which is left alone.
const TEXT_PRESENTATION = /^\P{Emoji_Presentation}\u20E3?$/u;

/** An emoji typed as a character becomes the realm's emoji, when the table knows the sequence. */
export const unicodeEmoji: InlinePattern = {
  name: 'unicodeemoji',
  regex: new RegExp(`${ELEMENT}(?:\\u200D${ELEMENT})*`, 'gu'),
  handle: (match, env) => {
    if (TEXT_PRESENTATION.test(match[0])) return null;
    const code = emojiCodeOf(match[0]);
    const name = env.ctx.emojiNameByCode?.(code) ?? null;
    return name ? { node: unicodeEmojiNode(code, `:${name}:`) } : null;
  },
};

/** The `emoji_code` of typed emoji: hex code points joined by `-`, without U+FE0F. */
function emojiCodeOf(text: string): string {
  return [...text]
    .map((c) => c.codePointAt(0)!)
    .filter((p) => p !== 0xfe0f)
    .map((p) => p.toString(16).padStart(4, '0'))
    .join('-');
}
