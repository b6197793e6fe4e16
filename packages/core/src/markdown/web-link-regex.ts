/**
 * The reference's regex for URLs typed without Markdown ("bare" links). A link starts after
 * whitespace or one of `' " ( , : <`, has a scheme (`http://`, `https://`) or ends its host in a
 * real top-level domain (so `readme.md` and `views.py` are not links), may carry a path with up
 * to six levels of balanced parentheses, and ends before trailing punctuation. Email addresses
 * and bitcoin addresses count too.
 */
import { createRequire } from 'node:module';

// The IANA list of top-level domains, as the `tlds` package ships it (JSON, hence require).
const TLDS: string[] = createRequire(import.meta.url)('tlds');

// File extensions that are also TLDs but far more often mean a file name.
const NOT_LINKS = new Set(['java', 'md', 'mov', 'py', 'zip']);

const WORD = String.raw`\p{L}\p{N}_`;

// Longest first, so `.community` is not cut at `.com`.
const tldAlternatives = () =>
  TLDS.filter((tld) => !NOT_LINKS.has(tld))
    .sort((a, b) => b.length - a.length)
    .map((tld) => tld.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('|');

// Path characters, with nested balanced parentheses up to six levels deep.
function nestedParens(): string {
  const group = String.raw`[^\s()"]*?(?:\(%s\)[^\s()"]*?)*`;
  let chunk = group;
  for (let i = 0; i < 6; i++) chunk = chunk.replace('%s', group);
  return chunk.replace('%s', String.raw`[^\s()"]*`);
}

let cached: RegExp | undefined;

/** The bare-link regex (global, Unicode); the link is group `url`. Built once, on first use. */
export function webLinkRegex(): RegExp {
  cached ??= new RegExp(
    String.raw`(?<![^\s'"(,:<])` +
      String.raw`(?<url>(?:(?:https?://[${WORD}.:@-]+?|(?:[${WORD}-]+\.)+(?:${tldAlternatives()}))(?:/${nestedParens()})?)` +
      String.raw`|(?:[${WORD}.-]+@[${WORD}.-]+\.[${WORD}]+)` +
      String.raw`|(?:bitcoin:[13][a-km-zA-HJ-NP-Z1-9]{25,34}))` +
      String.raw`(?=[!:;?),.'">]*(?:$|\s))`,
    'gu',
  );
  return cached;
}
