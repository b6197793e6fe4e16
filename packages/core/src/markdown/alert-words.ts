/**
 * Alert words: whether a message contains one of a user's words, checked per recipient (each
 * has their own words) against the raw content, as the reference does before rendering.
 */
import { processFences } from './fences.js';
import { normalizeLines } from './normalize.js';
import { BlockStash } from './placeholders.js';

// The characters that may stand right before and right after an alert word (else it is part of
// a longer word). The reference's lists; its `'",'` entry was meant as `"`, which is used here.
const BEFORE = new Set([' ', '\n', '(', '"', '.', ',', "'", ';', '[', '*', '`', '>']);
const AFTER = new Set([' ', '\n', ')', '"', '?', ':', '.', ',', "'", ';', ']', '!', '*', '`']);

/**
 * Whether `content` (Markdown) contains any of `words`, case-insensitively, as a word of its own.
 * Text inside fenced code blocks does not count.
 */
export function alertWordsMatch(content: string, words: readonly string[]): boolean {
  if (words.length === 0) return false;
  const text = processFences(normalizeLines(content), new BlockStash(), null).join('\n').toLowerCase();
  return words.some((word) => containsWord(text, word.toLowerCase()));
}

function containsWord(text: string, word: string): boolean {
  if (word === '') return false;
  for (let at = text.indexOf(word); at !== -1; at = text.indexOf(word, at + 1)) {
    const before = text[at - 1];
    const after = text[at + word.length];
    if ((before === undefined || BEFORE.has(before)) && (after === undefined || AFTER.has(after))) return true;
  }
  return false;
}
