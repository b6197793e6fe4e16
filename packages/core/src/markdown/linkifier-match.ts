/**
 * The one place linkifier patterns are compiled and matched. Patterns are in the reference's
 * dialect, RE2 (Python-style named groups `(?P<name>…)`, no backreferences or lookaround), and
 * run on re2js, RE2's pure-JavaScript port: matching is linear in the text, so no pattern an
 * administrator saves can hang rendering (`(a+)+$` included). A pattern is wrapped as the
 * reference wraps it: a match must start at the start of the text, after whitespace, or after
 * one of `' " ( , : <`, and must not run straight into a letter or digit.
 */
import { RE2JS } from 're2js';

/** The subset of RegExp the inline engine drives: set `lastIndex`, then `exec`. */
export interface Searcher {
  lastIndex: number;
  exec(text: string): RegExpExecArray | null;
}

/** Names of the wrapper's groups; users' group names cannot collide with them. */
export const BEFORE_GROUP = 'linkifier_before_match';
export const MATCH_GROUP = 'linkifier_actual_match';
export const AFTER_GROUP = 'linkifier_after_match';

// re2js reports Go's texts; the reference shows RE2's (C++) texts for the same errors.
const RE2_ERROR_TEXTS: ReadonlyArray<[string, string]> = [
  ['missing closing )', 'missing )'],
  ['missing closing ]', 'missing ]'],
  ['trailing backslash at end of expression', 'trailing \\'],
  ['missing argument to repetition operator', 'no argument for repetition operator'],
  ['invalid nested repetition operator', 'bad repetition operator'],
  ['invalid repeat count', 'bad repetition operator'],
  ['invalid or unsupported Perl syntax', 'invalid perl operator'],
  ['invalid named capture', 'invalid named capture group'],
  ['duplicate capture group name', 'invalid named capture group'],
];

/** A pattern compiled on its own, or the RE2 error text it does not compile with. */
export function compilePattern(pattern: string): { ok: true; groupNames: string[] } | { ok: false; error: string } {
  try {
    return { ok: true, groupNames: Object.keys(RE2JS.compile(pattern).namedGroups()) };
  } catch (error) {
    let text = (error instanceof Error ? error.message : String(error)).replace(/^error parsing regexp: /, '');
    for (const [go, re2] of RE2_ERROR_TEXTS) if (text.startsWith(`${go}: `)) text = re2 + text.slice(go.length);
    return { ok: false, error: text.replace(/: `(.*)`$/s, ': $1') };
  }
}

/** Whether the whole of `text` matches `pattern`, with the named groups' values when it does. */
export function fullMatchGroups(pattern: string, text: string): Record<string, string | undefined> | null {
  const regex = RE2JS.compile(pattern);
  const matcher = regex.matcher(text);
  if (!matcher.matches()) return null;
  const groups: Record<string, string | undefined> = {};
  for (const name of Object.keys(regex.namedGroups())) groups[name] = matcher.group(name) ?? undefined;
  return groups;
}

/** An RE2 program behind the RegExp-like interface the inline engine and topic links use. */
class Re2Searcher implements Searcher {
  lastIndex = 0;
  private readonly names: string[];
  constructor(private readonly regex: RE2JS) {
    this.names = Object.keys(regex.namedGroups());
  }
  exec(text: string): RegExpExecArray | null {
    const matcher = this.regex.matcher(text);
    if (!matcher.find(this.lastIndex)) return null;
    const values: string[] = [];
    for (let i = 0; i <= matcher.groupCount(); i++) values.push(matcher.group(i) ?? (undefined as unknown as string));
    const groups: Record<string, string> = {};
    for (const name of this.names) {
      const value = matcher.group(name);
      if (value !== null) groups[name] = value;
    }
    const match = Object.assign(values, { index: matcher.start(), input: text, groups }) as unknown as RegExpExecArray;
    this.lastIndex = matcher.end();
    return match;
  }
}

// Compiling costs more than matching a message: keep the realms' patterns, bounded.
const COMPILED = new Map<string, RE2JS | null>();
const MAX_COMPILED = 1000;

/**
 * Compiles a linkifier pattern, wrapped, for searching; null when it does not compile (the
 * reference skips such a linkifier rather than failing the message).
 */
export function compileLinkifier(pattern: string): Searcher | null {
  let regex = COMPILED.get(pattern);
  if (regex === undefined) {
    const wrapped =
      `(?P<${BEFORE_GROUP}>^|\\s|\\x{0085}|\\pZ|['"(,:<])` + `(?P<${MATCH_GROUP}>${pattern})` + `(?P<${AFTER_GROUP}>$|[^\\pL\\pN])`;
    try {
      regex = RE2JS.compile(wrapped);
    } catch {
      regex = null;
    }
    if (COMPILED.size >= MAX_COMPILED) COMPILED.clear();
    COMPILED.set(pattern, regex);
  }
  return regex ? new Re2Searcher(regex) : null;
}
