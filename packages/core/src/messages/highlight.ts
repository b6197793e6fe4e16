/**
 * Search highlights (SHAPES.md 5.1 `match_content` / `match_subject`): the words of a message
 * that a `search` narrow matched, wrapped in `<span class="highlight">`. A word matches as the
 * full-text index does (storage/sqlite/message-query.ts ftsQuery): a search word is a prefix
 * of it, ignoring case.
 */
const WORD = /[\p{L}\p{N}_]+/gu;

/** The search words of a narrow's `search` terms (negated ones highlight nothing). */
export function searchWords(terms: ReadonlyArray<{ operator: string; operand: unknown; negated: boolean }>): string[] {
  const words = terms
    .filter((t) => t.operator === 'search' && !t.negated)
    .flatMap((t) => String(t.operand).toLowerCase().match(WORD) ?? []);
  // Each word is tried against every token of every message shown: once is enough.
  return [...new Set(words)];
}

function highlightText(text: string, words: readonly string[]): string {
  return text.replace(WORD, (token, offset: number) => {
    // The name of a character reference (`&amp;`) is not a word of the text.
    if (text[offset - 1] === '&' && text[offset + token.length] === ';') return token;
    return words.some((w) => token.toLowerCase().startsWith(w)) ? `<span class="highlight">${token}</span>` : token;
  });
}

/** Rendered HTML with matches highlighted in its text, never inside tags or attributes. */
export function highlightHtml(html: string, words: readonly string[]): string {
  if (words.length === 0) return html;
  return html
    .split(/(<[^>]*>)/)
    .map((part) => (part.startsWith('<') ? part : highlightText(part, words)))
    .join('');
}

const escapeHtml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#x27;');

/** A topic, HTML-escaped, with matches highlighted. */
export const highlightTopic = (topic: string, words: readonly string[]) => highlightText(escapeHtml(topic), words);
