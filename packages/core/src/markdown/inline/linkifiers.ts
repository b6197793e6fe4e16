/** The realm's linkifiers: text matching a pattern links to the expanded URL template. */
import { parseTemplate } from 'url-template';
import { AFTER_GROUP, BEFORE_GROUP, compileLinkifier, MATCH_GROUP } from '../linkifier-match.js';
import type { Linkifier } from '../types.js';
import { relativeToRealm, sanitizeUrl } from '../url.js';
import type { InlinePattern } from './engine.js';

/** The URL a linkifier match links to: the template expanded with the pattern's named groups. */
export function expandLinkifierUrl(urlTemplate: string, groups: Record<string, string | undefined>): string {
  const values: Record<string, string> = {};
  for (const [name, value] of Object.entries(groups)) {
    if (value !== undefined && name !== BEFORE_GROUP && name !== MATCH_GROUP && name !== AFTER_GROUP) values[name] = value;
  }
  return parseTemplate(urlTemplate).expand(values);
}

/** One inline pattern per linkifier that compiles, in the realm's order. */
export function linkifierPatterns(linkifiers: readonly Linkifier[]): InlinePattern[] {
  return linkifiers.flatMap(({ pattern, urlTemplate }) => {
    const searcher = compileLinkifier(pattern);
    if (!searcher) return [];
    const linkifier: InlinePattern = {
      name: `linkifiers/${pattern}`,
      regex: searcher,
      handle: (match, env) => {
        const groups = match.groups ?? {};
        const sanitized = sanitizeUrl(expandLinkifierUrl(urlTemplate, groups));
        if (sanitized === null) return null;
        const start = match.index + groups[BEFORE_GROUP]!.length;
        const text = groups[MATCH_GROUP]!;
        const href = relativeToRealm(env.ctx.realmUrl, sanitized);
        return { node: { kind: 'element', tag: 'a', attrs: { href }, content: text }, start, end: start + text.length };
      },
    };
    return [linkifier];
  });
}
