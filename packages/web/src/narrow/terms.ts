/**
 * Views as the API's narrow (GET /messages `narrow`), and the search box's narrow syntax
 * (`channel:general topic:lunch is:starred sender:ann@example.com words`) as terms.
 */
import type { MessageView } from './view';

export interface NarrowTerm {
  operator: string;
  operand: string | number | number[];
  negated?: boolean;
}

/**
 * Parses search text: `operator:operand` pairs (a leading `-` negates, quotes allow spaces),
 * the other words joined into one `search` term.
 */
export function parseSearch(query: string): NarrowTerm[] {
  const terms: NarrowTerm[] = [];
  const words: string[] = [];
  const tokens = query.match(/-?[a-z-]+:"[^"]*"|"[^"]*"|\S+/gi) ?? [];
  for (const token of tokens) {
    const match = /^(-?)([a-z-]+):(.*)$/i.exec(token);
    if (!match || match[3] === '') {
      words.push(token.replace(/^"|"$/g, ''));
      continue;
    }
    const operator = match[2]!.toLowerCase() === 'stream' ? 'channel' : match[2]!.toLowerCase();
    const text = match[3]!.replace(/^"|"$/g, '');
    terms.push({ operator, operand: text, ...(match[1] ? { negated: true } : {}) });
  }
  if (words.length > 0) terms.push({ operator: 'search', operand: words.join(' ') });
  return terms;
}

export function viewToTerms(view: MessageView): NarrowTerm[] {
  switch (view.kind) {
    case 'feed':
      return [];
    case 'channel':
      return [
        { operator: 'channel', operand: view.channelId },
        ...(view.topic === undefined ? [] : [{ operator: 'topic', operand: view.topic }]),
      ];
    case 'dm':
      return [{ operator: 'dm', operand: view.userIds }];
    case 'all-dms':
      return [{ operator: 'is', operand: 'dm' }];
    case 'starred':
      return [{ operator: 'is', operand: 'starred' }];
    case 'mentioned':
      return [{ operator: 'is', operand: 'mentioned' }];
    case 'search':
      return parseSearch(view.query);
  }
}
