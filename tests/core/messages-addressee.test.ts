/** The `to` of POST /messages parsed before any lookup: plain names and emails skip JSON.parse, JSON forms parse as before. */
import { describe, expect, it } from 'vitest';
import { channelIndicator, directRecipients } from '../../packages/core/src/messages/addressee.js';

describe('channelIndicator', () => {
  it('takes a plain name as it is, including names that begin like JSON literals or are not valid JSON', () => {
    for (const name of ['general', 'true story', 'null and void', 'fun', ' spaced ', '[broken', '{x', '"unterminated', '-dash', '7 wonders']) {
      expect(channelIndicator(name)._unsafeUnwrap()).toBe(name);
    }
  });
  it('reads JSON: an ID, a quoted name, a list of exactly one', () => {
    expect(channelIndicator('42')._unsafeUnwrap()).toBe(42);
    expect(channelIndicator(' 42 ')._unsafeUnwrap()).toBe(42);
    expect(channelIndicator('"Denmark"')._unsafeUnwrap()).toBe('Denmark');
    expect(channelIndicator('["Denmark"]')._unsafeUnwrap()).toBe('Denmark');
    expect(channelIndicator('[7]')._unsafeUnwrap()).toBe(7);
  });
  it('refuses JSON of the wrong shape', () => {
    for (const raw of ['[1, 2]', '[]', 'true', 'null', ' false ', '{"a": 1}', '1.5']) {
      expect(channelIndicator(raw).isErr()).toBe(true);
    }
  });
});

describe('directRecipients', () => {
  it('splits plain comma-separated emails, stripped, blanks and duplicates dropped', () => {
    expect(directRecipients('a@example.com, b@example.com,,a@example.com')._unsafeUnwrap()).toEqual({ emails: ['a@example.com', 'b@example.com'] });
    expect(directRecipients('true@example.com')._unsafeUnwrap()).toEqual({ emails: ['true@example.com'] });
  });
  it('reads JSON lists of IDs or emails, a single ID and a quoted list', () => {
    expect(directRecipients('[3, 4, 3]')._unsafeUnwrap()).toEqual({ ids: [3, 4] });
    expect(directRecipients('9')._unsafeUnwrap()).toEqual({ ids: [9] });
    expect(directRecipients('["a@example.com"]')._unsafeUnwrap()).toEqual({ emails: ['a@example.com'] });
    expect(directRecipients('"a@example.com,b@example.com"')._unsafeUnwrap()).toEqual({ emails: ['a@example.com', 'b@example.com'] });
  });
  it('refuses mixed lists and other JSON', () => {
    expect(directRecipients('[1, "a@example.com"]').isErr()).toBe(true);
    expect(directRecipients('{"a": 1}').isErr()).toBe(true);
    expect(directRecipients('null').isErr()).toBe(true);
  });
});
