/**
 * How a unicode emoji becomes its `emoji_code`: the reference writes each code point as
 * lowercase hex of at least four digits, joins them with `-`, and leaves out U+FE0F
 * (VARIATION SELECTOR-16). Dropping FE0F makes the fully-qualified and unqualified spellings of
 * one emoji (❤️ and ❤) share a code, so a reaction or a `:name:` never depends on which one a
 * client sent.
 */

const VARIATION_SELECTOR_16 = 0xfe0f;

/** The `emoji_code` for a sequence of code points. */
export function emojiCodeOfCodePoints(codePoints: Iterable<number>): string {
  const parts: string[] = [];
  for (const point of codePoints) {
    if (point !== VARIATION_SELECTOR_16) parts.push(point.toString(16).padStart(4, '0'));
  }
  return parts.join('-');
}

/** The `emoji_code` for emoji text as typed, for example `emojiCodeOfText('❤️') === '2764'`. */
export function emojiCodeOfText(text: string): string {
  return emojiCodeOfCodePoints([...text].map((char) => char.codePointAt(0) as number));
}

