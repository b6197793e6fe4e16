/** Entities and line breaks. */
import type { InlinePattern } from './engine.js';

/**
 * A character reference the sender typed (`&amp;`, `&#169;`) is kept as written, as the
 * reference does; the pattern admits only names and numbers, so it cannot open a tag.
 */
export const entity: InlinePattern = {
  name: 'entity',
  regex: /&(?:#[0-9]+|#x[0-9a-fA-F]+|[a-zA-Z0-9]+);/g,
  handle: (match) => ({ node: { kind: 'html', html: match[0] } }),
};

/** Every newline inside a paragraph is a line break (chat, not prose). */
export const lineBreak: InlinePattern = {
  name: 'nl2br',
  regex: /\n/g,
  handle: () => ({ node: { kind: 'break' } }),
};
