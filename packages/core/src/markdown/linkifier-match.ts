/**
 * The one place linkifier patterns are compiled and matched, so switching the engine (to RE2,
 * which the reference validates patterns with) changes only this file. A pattern is wrapped as
 * the reference wraps it: a match must start at the start of the text, after whitespace, or
 * after one of `' " ( , : <`, and must not run straight into a letter or digit.
 */

/** The subset of RegExp the inline engine drives: set `lastIndex`, then `exec`. */
export interface Searcher {
  lastIndex: number;
  exec(text: string): RegExpExecArray | null;
}

/** Names of the wrapper's groups; users' group names cannot collide with them. */
export const BEFORE_GROUP = 'linkifier_before_match';
export const MATCH_GROUP = 'linkifier_actual_match';
export const AFTER_GROUP = 'linkifier_after_match';

/** Rewrites RE2/Python syntax the JavaScript engine spells differently. */
function toJavaScriptSyntax(pattern: string): string {
  let out = '';
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const char = pattern[i]!;
    if (char === '\\') {
      const next = pattern[i + 1] ?? '';
      i++;
      const category = pattern[i + 1] ?? '';
      if ((next === 'p' || next === 'P') && /^[A-Z]$/.test(category)) {
        // RE2's one-letter form `\pL` is `\p{L}` here.
        out += `\\${next}{${category}}`;
        i++;
      } else if (next === 'A') out += '^';
      else if (next === 'z') out += '$';
      // Unicode-mode regexes reject escapes of characters that need none (`\-` outside a class, `\#`).
      else if (/[^\w^$\\.*+?()[\]{}|/]/.test(next) && !(inClass && next === '-')) out += next;
      else out += `\\${next}`;
      continue;
    }
    if (char === '[' && !inClass) inClass = true;
    else if (char === ']' && inClass) inClass = false;
    if (!inClass && pattern.startsWith('(?P<', i)) {
      out += '(?<';
      i += 3;
      continue;
    }
    out += char;
  }
  return out;
}

/**
 * Compiles a linkifier pattern, wrapped, for searching; null when it does not compile (the
 * reference skips such a linkifier rather than failing the message).
 */
export function compileLinkifier(pattern: string): Searcher | null {
  const wrapped =
    `(?<${BEFORE_GROUP}>^|\\s|\\u0085|\\p{Z}|['"(,:<])` +
    `(?<${MATCH_GROUP}>${toJavaScriptSyntax(pattern)})` +
    `(?<${AFTER_GROUP}>$|[^\\p{L}\\p{N}])`;
  try {
    return new RegExp(wrapped, 'gu');
  } catch {
    return null;
  }
}
