/**
 * The source clean-up every message gets before parsing (Python-Markdown's NormalizeWhitespace,
 * which the reference uses): one kind of line break, tabs expanded to 4-column stops, lines of
 * only spaces emptied, and no placeholder characters.
 */
import { stripPlaceholderChars } from './placeholders.js';

const TAB_STOP = 4;

/** Python's `str.expandtabs(4)` for one line. */
function expandTabs(line: string): string {
  if (!line.includes('\t')) return line;
  let out = '';
  for (const char of line) {
    out += char === '\t' ? ' '.repeat(TAB_STOP - (out.length % TAB_STOP)) : char;
  }
  return out;
}

/** The message's lines, normalized. */
export function normalizeLines(content: string): string[] {
  return stripPlaceholderChars(content)
    .replace(/\r\n?/g, '\n')
    .split('\n')
    .map((line) => {
      const expanded = expandTabs(line);
      return /^ +$/.test(expanded) ? '' : expanded;
    });
}
