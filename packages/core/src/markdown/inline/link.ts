/**
 * `[text](url)` and `[text](url "title")`. Targets go through the URL allow-list, so a link to
 * `javascript:` stays as typed; a link into the realm becomes relative; empty text shows the
 * URL. The text is not formatted further (only constructs that bind tighter, like code spans,
 * appear in it), as in the reference. Images (`![…](…)`) and reference links are not supported.
 */
import { relativeToRealm, sanitizeUrl } from '../url.js';
import type { InlinePattern } from './engine.js';

/** The index just after the `]` closing the bracket opened before `from`, or -1. */
function closeBracket(data: string, from: number): number {
  let depth = 1;
  for (let i = from; i < data.length; i++) {
    if (data[i] === '[') depth++;
    else if (data[i] === ']' && --depth === 0) return i + 1;
  }
  return -1;
}

/** Reads `(url)` / `(url "title")` / `(<url>)` at `from`: the target, its title and the end. */
function readTarget(data: string, from: number): { href: string; title: string | null; end: number } | null {
  if (data[from] !== '(') return null;
  const angled = /^\(\s*<([^<>]*)>\s*(?:("[^"]*"|'[^']*')\s*)?\)/.exec(data.slice(from));
  if (angled) return { href: angled[1]!.trim(), title: angled[2]?.slice(1, -1) ?? null, end: from + angled[0].length };
  let depth = 1;
  for (let i = from + 1; i < data.length; i++) {
    if (data[i] === '(') depth++;
    else if (data[i] === ')' && --depth === 0) {
      const inside = data.slice(from + 1, i);
      const titled = /^([\s\S]*?)\s+("[^"]*"|'[^']*')\s*$/.exec(inside);
      if (titled) return { href: titled[1]!.trim(), title: titled[2]!.slice(1, -1), end: i + 1 };
      return { href: inside.trim(), title: null, end: i + 1 };
    }
  }
  return null;
}

export const link: InlinePattern = {
  name: 'link',
  regex: /(?<!!)\[/g,
  handle: (match, env) => {
    const data = match.input;
    const textEnd = closeBracket(data, match.index + 1);
    if (textEnd === -1) return null;
    const target = readTarget(data, textEnd);
    if (!target) return null;
    const sanitized = sanitizeUrl(env.stash.toSource(target.href));
    if (sanitized === null) return null;
    const href = relativeToRealm(env.ctx.realmUrl, sanitized);
    const text = data.slice(match.index + 1, textEnd - 1);
    const attrs: Record<string, string> = { href };
    if (target.title !== null) attrs.title = env.stash.toSource(target.title);
    const empty = env.stash.toSource(text).trim() === '';
    return {
      node: { kind: 'element', tag: 'a', attrs, content: empty ? href : text, literal: empty },
      end: target.end,
    };
  },
};
