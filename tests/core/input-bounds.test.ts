/**
 * Input bounds (issue #10): validation work and error building do not grow with the input. Work
 * is counted with a counting item struct rather than timed: a list over its limit checks no item,
 * a list of bad items checks only up to the first, and the error names only that one.
 */
import { validateInput } from '@teamchat/core/internal';
import { describe, expect, it } from 'vitest';
import { MAX_NARROW_TERMS, MAX_SEARCH_CHARS, MAX_SEARCH_WORDS, canonicalNarrow } from '../../packages/core/src/messages/narrow.js';
import { RegisterParams } from '../../packages/core/src/schemas/events.js';
import { UpdateMessageFlagsParams } from '../../packages/core/src/schemas/message-flags.js';
import { GetMessagesParams } from '../../packages/core/src/schemas/messages.js';
import { SubscribeParams, UnsubscribeParams } from '../../packages/core/src/schemas/channels.js';
import { array, define, IdList, json, List, MAX_JSON_TEXT_CHARS, object, Text } from '../../packages/core/src/schemas/wire.js';
import { exceedsCodePoints, firstCodePoints } from '../../packages/core/src/text/length.js';
import { unprintablePosition } from '../../packages/core/src/text/printable.js';
import { sanitizeFileName } from '../../packages/core/src/uploads/path-id.js';
import { expectBadRequest } from './fixtures.js';

/** An integer struct that counts how many values it checked. */
function countingInt() {
  const counter = { checked: 0 };
  const struct = define<number>('integer', (v) => {
    counter.checked++;
    return Number.isSafeInteger(v) || '{var} is not an integer';
  });
  return { counter, struct };
}

describe('lists: the count before the items, and only the first failure', () => {
  it('a list over its limit is refused without checking a single item', () => {
    const { counter, struct } = countingInt();
    const params = object({ ids: List(struct, { max: 10 }) });
    expectBadRequest(validateInput(params, { ids: JSON.stringify(Array.from({ length: 11 }, (_, i) => i)) }), 'ids has too many items (limit: 10)');
    expectBadRequest(validateInput(params, { ids: Array.from({ length: 1_000_000 }, (_, i) => i) }), 'ids has too many items (limit: 10)');
    expect(counter.checked).toBe(0);
    expect(validateInput(params, { ids: '[1,2,3]' })._unsafeUnwrap()).toEqual({ ids: [1, 2, 3] });
  });

  it('a million bad items cost one check and one failure (superstruct would list them all)', () => {
    const { counter, struct } = countingInt();
    const params = object({ ids: json(array(struct, 2_000_000), Number.MAX_SAFE_INTEGER) });
    const bad = Array.from({ length: 1_000_000 }, () => 'x');
    expectBadRequest(validateInput(params, { ids: bad }), 'ids[0] is not an integer');
    expect(counter.checked).toBe(1);
  });

  it('inside a union (which drains every branch) an over-long list still checks nothing', () => {
    const { counter, struct } = countingInt();
    const params = object({ to: json(array(struct, 5)) });
    expectBadRequest(validateInput(params, { to: JSON.stringify(Array.from({ length: 100_000 }, () => 'x')) }), 'to has too many items (limit: 5)');
    expect(counter.checked).toBe(0);
  });

  it('JSON text over its size is refused before it is parsed', () => {
    const ids = IdList(100);
    const params = object({ ids });
    expectBadRequest(validateInput(params, { ids: `[${' '.repeat(3000)}1]` }), 'ids is too long (limit: 2464 characters)');
    expectBadRequest(validateInput(object({ v: json(Text()) }), { v: `"${'x'.repeat(MAX_JSON_TEXT_CHARS)}"` }), `v is too long (limit: ${MAX_JSON_TEXT_CHARS} characters)`);
  });
});

describe('the endpoints of the report: narrow, flags, subscriptions', () => {
  const million = JSON.stringify(Array.from({ length: 1_000_000 }, (_, i) => i));

  it('POST /register and GET /messages: a narrow of a million integers is refused by size; one just over the term limit by count', () => {
    expectBadRequest(validateInput(RegisterParams, { narrow: million }), 'narrow is too long (limit: 100000 characters)');
    expectBadRequest(validateInput(GetMessagesParams, { narrow: million }), 'narrow is too long (limit: 100000 characters)');
    const terms = JSON.stringify(Array.from({ length: MAX_NARROW_TERMS + 1 }, () => ['is', 'starred']));
    expectBadRequest(validateInput(RegisterParams, { narrow: terms }), `narrow has too many items (limit: ${MAX_NARROW_TERMS})`);
    expectBadRequest(validateInput(GetMessagesParams, { narrow: terms }), `narrow has too many items (limit: ${MAX_NARROW_TERMS})`);
    expectBadRequest(validateInput(GetMessagesParams, { message_ids: JSON.stringify(Array.from({ length: 5001 }, (_, i) => i)) }), 'message_ids has too many items (limit: 5000)');
    expectBadRequest(validateInput(RegisterParams, { include_subscribers: `[${'1,'.repeat(500_000)}1]` }), 'include_subscribers is too long (limit: 1000 characters)');
  });

  it('POST /messages/flags and /users/me/subscriptions: a million elements answer the first failure or the limit', () => {
    expectBadRequest(validateInput(UpdateMessageFlagsParams, { messages: million, op: 'add', flag: 'read' }), 'messages is too long (limit: 120064 characters)');
    expectBadRequest(
      validateInput(UpdateMessageFlagsParams, { messages: JSON.stringify(Array.from({ length: 5001 }, (_, i) => i)), op: 'add', flag: 'read' }),
      'messages has too many items (limit: 5000)',
    );
    const names = JSON.stringify(Array.from({ length: 20_000 }, (_, i) => ({ name: `c${i}` })));
    expectBadRequest(validateInput(SubscribeParams, { subscriptions: names }), 'subscriptions has too many items (limit: 10000)');
    expectBadRequest(validateInput(UnsubscribeParams, { subscriptions: million }), 'subscriptions is too long (limit: 1000000 characters)');
    const principals = JSON.stringify(Array.from({ length: 20_000 }, (_, i) => i));
    expectBadRequest(validateInput(UnsubscribeParams, { subscriptions: '["a"]', principals }), 'Invalid principals');
  });

  it('search terms: the words and the text over all search operands are bounded', () => {
    const words = (n: number, from = 0) => Array.from({ length: n }, (_, i) => `w${from + i}`).join(' ');
    expect(canonicalNarrow([{ operator: 'search', operand: words(MAX_SEARCH_WORDS) }]).isOk()).toBe(true);
    const split = [
      { operator: 'search', operand: words(MAX_SEARCH_WORDS / 2) },
      { operator: 'search', operand: words(MAX_SEARCH_WORDS / 2 + 1, 1000), negated: true },
    ];
    expectBadRequest(canonicalNarrow(split), `Too many search words (limit: ${MAX_SEARCH_WORDS})`);
    // Repeated words (in any case) count once: they are one lookup.
    const repeated = Array.from({ length: 100 }, (_, i) => ({ operator: 'search', operand: i % 2 ? 'Word' : 'word other' }));
    expect(canonicalNarrow(repeated).isOk()).toBe(true);
    expectBadRequest(canonicalNarrow([{ operator: 'search', operand: 'x'.repeat(MAX_SEARCH_CHARS + 1) }]), `Search text is too long (limit: ${MAX_SEARCH_CHARS} characters)`);
  });
});

describe('text helpers', () => {
  it('exceedsCodePoints and firstCodePoints count surrogate pairs as one character', () => {
    const emoji = '\u{1F600}';
    expect(exceedsCodePoints(emoji.repeat(3), 3)).toBe(false);
    expect(exceedsCodePoints(emoji.repeat(4), 3)).toBe(true);
    expect(exceedsCodePoints('abcd', 3)).toBe(true);
    expect(exceedsCodePoints('x'.repeat(25_000_000), 60)).toBe(true);
    expect(firstCodePoints(`a${emoji}b`, 2)).toBe(`a${emoji}`);
    expect(firstCodePoints('ab', 5)).toBe('ab');
  });

  it('unprintablePosition counts code points, and finds lone surrogates and noncharacters', () => {
    expect(unprintablePosition('fine \u{1F600} text')).toBe(0);
    expect(unprintablePosition('\u{1F600}\u{1F600}\n')).toBe(3);
    expect(unprintablePosition('ab\uD800c')).toBe(3);
    expect(unprintablePosition('\u{10FFFF}')).toBe(1);
    expect(unprintablePosition(`${'x'.repeat(1_000_000)}\u0000`)).toBe(1_000_001);
  });

  it('a 40,000-character file name is cut to 200 bytes in one pass, keeping its extension', () => {
    const name = sanitizeFileName(`${'\u00e9'.repeat(40_000)}.txt`);
    expect(Buffer.byteLength(name)).toBeLessThanOrEqual(200);
    expect(name).toBe(`${'\u00e9'.repeat(98)}.txt`);
    expect(sanitizeFileName(`${'a'.repeat(40_000)}`)).toBe('a'.repeat(200));
    expect(sanitizeFileName('report.pdf')).toBe('report.pdf');
  });
});
