/** topic_links (FACTS.md 10): linkifier matches and bare URLs, overlaps dropped by precedence. */
import { describe, expect, it } from 'vitest';
import { topicLinks } from '../../packages/core/src/markdown/index.js';

const TICKET = { pattern: '#(?P<id>[0-9]{2,8})', urlTemplate: 'https://trac.example.com/ticket/{id}' };
const JIRA = { pattern: '(?P<key>[A-Z]{2,})-(?P<id>[0-9]+)', urlTemplate: 'https://jira.example.com/browse/{key}-{id}' };

describe('topicLinks', () => {
  it('lists linkifier matches with their text and expanded URL', () => {
    expect(topicLinks('#444 is fixed', [TICKET])).toEqual([{ text: '#444', url: 'https://trac.example.com/ticket/444' }]);
  });

  it('finds every match of every linkifier, sorted by position', () => {
    expect(topicLinks('ABC-12 and #99, then XYZ-3', [TICKET, JIRA])).toEqual([
      { text: 'ABC-12', url: 'https://jira.example.com/browse/ABC-12' },
      { text: '#99', url: 'https://trac.example.com/ticket/99' },
      { text: 'XYZ-3', url: 'https://jira.example.com/browse/XYZ-3' },
    ]);
  });

  it('adds bare URLs; scheme-less ones get https://', () => {
    expect(topicLinks('see https://example.com/a?b=1 and zulip.com/docs', [])).toEqual([
      { text: 'https://example.com/a?b=1', url: 'https://example.com/a?b=1' },
      { text: 'zulip.com/docs', url: 'https://zulip.com/docs' },
    ]);
  });

  it('drops overlapping matches: earlier linkifiers win, and linkifiers beat URLs', () => {
    const wide = { pattern: 'ABC-(?P<id>[0-9]+)', urlTemplate: 'https://one.example/{id}' };
    expect(topicLinks('ABC-7', [wide, JIRA])).toEqual([{ text: 'ABC-7', url: 'https://one.example/7' }]);
    expect(topicLinks('ABC-7', [JIRA, wide])).toEqual([{ text: 'ABC-7', url: 'https://jira.example.com/browse/ABC-7' }]);
    const domain = { pattern: '(?P<name>[a-z]+)\\.com', urlTemplate: 'https://dir.example/{name}' };
    expect(topicLinks('example.com', [domain])).toEqual([{ text: 'example.com', url: 'https://dir.example/example' }]);
  });

  it('needs the same boundaries as in messages', () => {
    expect(topicLinks('x#123 #12a (#34)', [TICKET])).toEqual([{ text: '#34', url: 'https://trac.example.com/ticket/34' }]);
  });

  it('skips a linkifier that does not compile', () => {
    expect(topicLinks('#12', [{ pattern: '(', urlTemplate: 'https://x.example/' }, TICKET])).toEqual([
      { text: '#12', url: 'https://trac.example.com/ticket/12' },
    ]);
  });

  it('matches adjacent occurrences that share a delimiter', () => {
    expect(topicLinks('#12 #34', [TICKET]).map((l) => l.text)).toEqual(['#12', '#34']);
  });
});
