/**
 * `topic_links`: the clickable parts of a topic name (FACTS.md 10): every linkifier match (the
 * realm's order is their precedence) and every bare URL, with overlaps resolved in favour of the
 * higher precedence, listed by position.
 */
import { expandLinkifierUrl } from './inline/linkifiers.js';
import { AFTER_GROUP, compileLinkifier, MATCH_GROUP } from './linkifier-match.js';
import type { Linkifier, TopicLink } from './types.js';
import { splitUrl } from './url.js';
import { webLinkRegex } from './web-link-regex.js';

interface Found extends TopicLink {
  index: number;
}

// Topics are split at these before looking for bare URLs in each part.
const SPLITTER = /[ !;),'"]/;

/** The topic's links, in order of position. */
export function topicLinks(topic: string, linkifiers: readonly Linkifier[]): TopicLink[] {
  const found = [...linkifierMatches(topic, linkifiers), ...urlMatches(topic)];
  const kept: Found[] = [];
  for (const match of found) {
    if (kept.every((other) => !overlaps(match, other))) kept.push(match);
  }
  return kept.sort((a, b) => a.index - b.index).map(({ text, url }) => ({ text, url }));
}

const overlaps = (a: Found, b: Found) =>
  (b.index <= a.index && a.index < b.index + b.text.length) || (a.index <= b.index && b.index < a.index + a.text.length);

// In precedence order: by linkifier, then by position. A match's index is where its whole match
// starts (including the delimiter before it), as in the reference.
function linkifierMatches(topic: string, linkifiers: readonly Linkifier[]): Found[] {
  return linkifiers.flatMap(({ pattern, urlTemplate }) => {
    const searcher = compileLinkifier(pattern);
    const matches: Found[] = [];
    let position = 0;
    while (searcher && position < topic.length) {
      searcher.lastIndex = position;
      const match = searcher.exec(topic);
      if (!match) break;
      const groups = match.groups ?? {};
      matches.push({ text: groups[MATCH_GROUP]!, url: expandLinkifierUrl(urlTemplate, groups), index: match.index });
      // The character after a match may start the next one.
      const next = match.index + match[0].length - groups[AFTER_GROUP]!.length;
      position = next > position ? next : position + 1;
    }
    return matches.sort((a, b) => a.index - b.index);
  });
}

// Bare URLs, one search per part between splitter characters; scheme-less ones get https://.
function urlMatches(topic: string): Found[] {
  const matches: Found[] = [];
  let position = 0;
  while (position < topic.length) {
    const split = topic.slice(position).search(SPLITTER);
    const end = split === -1 ? topic.length : position + split;
    const regex = webLinkRegex();
    regex.lastIndex = 0;
    const match = regex.exec(topic.slice(position, end));
    if (match) {
      const text = match.groups!.url!;
      matches.push({ text, url: withScheme(text), index: position });
    }
    position = end + 1;
  }
  return matches;
}

function withScheme(url: string): string {
  const parts = splitUrl(url);
  if (parts.scheme) return url;
  let { netloc, path } = parts;
  if (!netloc) {
    const slash = path.indexOf('/');
    [netloc, path] = slash === -1 ? [path, ''] : [path.slice(0, slash), path.slice(slash)];
  }
  const query = parts.query ? `?${parts.query}` : '';
  const fragment = parts.fragment ? `#${parts.fragment}` : '';
  return `https://${netloc}${path}${query}${fragment}`;
}
