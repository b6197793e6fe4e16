/** The unicode emoji table: names, codes, the FE0F rule, and that the committed data is current. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  buildUnicodeEmojiLines,
  OUTPUT_PATH,
  readDatasource,
  renderUnicodeEmojiModule,
} from '../../packages/core/scripts/generate-emoji.js';
import {
  emojiCodeOfText,
  isValidEmojiCode,
  unicodeEmojiByCode,
  unicodeEmojiByName,
  unicodeEmojiNames,
} from '../../packages/core/src/emoji/index.js';

describe('unicode emoji names and codes', () => {
  it.each([
    ['octopus', '1f419', 'octopus'],
    ['+1', '1f44d', '+1'],
    ['thumbs_up', '1f44d', '+1'],
    ['like', '1f44d', '+1'],
    ['thumbsup', '1f44d', '+1'],
    ['-1', '1f44e', '-1'],
    ['heart', '2764', 'heart'],
    ['tada', '1f389', 'tada'],
    ['joy', '1f602', 'joy'],
    ['working_on_it', '1f6e0', 'working_on_it'],
    ['check', '2705', 'check'],
  ])('%s → %s (canonical %s)', (name, code, canonical) => {
    expect(unicodeEmojiByName(name)).toBe(code);
    expect(unicodeEmojiByCode(code)).toBe(canonical);
    expect(isValidEmojiCode(code)).toBe(true);
  });

  it('uses the reference names where they differ from iamcal: smile is 🙂, not 😄', () => {
    expect(unicodeEmojiByName('smile')).toBe('1f642');
    expect(unicodeEmojiByCode('1f642')).toBe('smile');
    expect(unicodeEmojiByName('slightly_smiling_face')).toBe('1f642');
    expect(unicodeEmojiByCode('1f604')).toBe('big_smile');
    expect(unicodeEmojiByName('ok')).toBe('1f44c');
    expect(unicodeEmojiByName('squared_ok')).toBe('1f197');
    expect(unicodeEmojiByName('cat')).toBe('1f408');
    expect(unicodeEmojiByName('kitten')).toBe('1f431');
  });

  it('knows flags, keycaps and ZWJ sequences by their full code', () => {
    expect(unicodeEmojiByName('de')).toBe('1f1e9-1f1ea');
    expect(unicodeEmojiByName('flag-de')).toBe('1f1e9-1f1ea');
    expect(unicodeEmojiByCode('1f1fa-1f1f8')).toBe('us');
    expect(unicodeEmojiByName('hash')).toBe('0023-20e3');
    expect(unicodeEmojiByCode('1f468-200d-1f469-200d-1f467-200d-1f466')).toBe('man-woman-girl-boy');
    expect(unicodeEmojiByName('rainbow-flag')).toBe('1f3f3-200d-1f308');
    expect(isValidEmojiCode('1f1e9')).toBe(false); // half a flag
  });

  it('leaves skin tone modifiers and skin-toned variants out, as the reference does', () => {
    expect(isValidEmojiCode('1f3fb')).toBe(false);
    expect(unicodeEmojiByName('skin-tone-2')).toBeUndefined();
    expect(isValidEmojiCode('1f44d-1f3fd')).toBe(false); // 👍🏽
  });

  it('keeps only the eight o’clock face, as time', () => {
    expect(unicodeEmojiByName('time')).toBe('1f557');
    expect(unicodeEmojiByName('clock1')).toBeUndefined();
    expect(isValidEmojiCode('1f550')).toBe(false);
  });

  it('refuses well-formed codes it does not know and codes in the wrong form', () => {
    expect(isValidEmojiCode('1f9ff0')).toBe(false);
    expect(isValidEmojiCode('abcd')).toBe(false);
    expect(isValidEmojiCode('1F419')).toBe(false);
    expect(isValidEmojiCode('2764-fe0f')).toBe(false);
    expect(isValidEmojiCode('')).toBe(false);
    expect(unicodeEmojiByName('')).toBeUndefined();
    expect(unicodeEmojiByName('__proto__')).toBeUndefined();
    expect(unicodeEmojiByName('Octopus')).toBeUndefined();
  });

  it('gives every name one code and every code a canonical name that maps back to it', () => {
    let count = 0;
    for (const name of unicodeEmojiNames()) {
      const code = unicodeEmojiByName(name) as string;
      expect(code).toMatch(/^[0-9a-f]{4,}(-[0-9a-f]{4,})*$/);
      expect(code).not.toMatch(/(^|-)fe0f(-|$)/);
      expect(unicodeEmojiByName(unicodeEmojiByCode(code) as string)).toBe(code);
      count += 1;
    }
    expect(count).toBeGreaterThan(1900);
  });
});

describe('emoji codes of text', () => {
  it('writes code points as lowercase hex of at least four digits, without FE0F', () => {
    expect(emojiCodeOfText('🐙')).toBe('1f419');
    expect(emojiCodeOfText('❤️')).toBe('2764');
    expect(emojiCodeOfText('❤')).toBe('2764');
    expect(emojiCodeOfText('#️⃣')).toBe('0023-20e3');
    expect(emojiCodeOfText('🇩🇪')).toBe('1f1e9-1f1ea');
    expect(emojiCodeOfText('🏳️‍🌈')).toBe('1f3f3-200d-1f308');
    expect(emojiCodeOfText('👍🏽')).toBe('1f44d-1f3fd');
  });

  it('matches the table for typed emoji', () => {
    expect(unicodeEmojiByCode(emojiCodeOfText('❤️'))).toBe('heart');
    expect(unicodeEmojiByCode(emojiCodeOfText('🏳️‍🌈'))).toBe('rainbow-flag');
  });
});

describe('the generated table', () => {
  it('is what the generator makes from the installed emoji-datasource (run generate:emoji)', () => {
    const { data, source } = readDatasource();
    expect(readFileSync(OUTPUT_PATH, 'utf8')).toBe(renderUnicodeEmojiModule(buildUnicodeEmojiLines(data), source));
  });

  it('stays small', () => {
    expect(readFileSync(OUTPUT_PATH).length).toBeLessThan(100_000);
  });

  it('refuses overrides that would leave an emoji nameless or a name ambiguous', () => {
    const data = [
      { unified: '1F604', short_names: ['smile'], sort_order: 1 },
      { unified: '1F642', short_names: ['slightly_smiling_face'], sort_order: 2 },
    ];
    expect(() => buildUnicodeEmojiLines(data, { '1f642': ['smile'] }, new Set())).toThrow(/lost all its names/);
    expect(() => buildUnicodeEmojiLines(data, { '1f642': ['x'], '1f604': ['x'] }, new Set())).toThrow(/twice/);
    expect(() => buildUnicodeEmojiLines(data, { '1f999': ['x'] }, new Set())).toThrow(/does not have/);
    expect(buildUnicodeEmojiLines(data, { '1f642': ['smile'], '1f604': ['big_smile'] }, new Set())).toEqual([
      '1f604 big_smile',
      '1f642 smile slightly_smiling_face',
    ]);
  });
});
