/** Length checks on text that cost at most the limit, never the text's own size in memory. */

/**
 * Whether `text` has more than `max` code points. Counts without building an array of them
 * (`[...text]` would allocate one entry per character of a hostile 25 MiB value), and stops
 * at the first code point past the limit.
 */
export function exceedsCodePoints(text: string, max: number): boolean {
  // A code point takes one or two UTF-16 units, so the unit count bounds the point count.
  if (text.length <= max) return false;
  if (text.length > 2 * max) return true;
  let count = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    // A high surrogate followed by a low one is one code point.
    if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) i++;
    }
    if (++count > max) return true;
  }
  return false;
}

/** The number of code points of `text` (Python's len()), counted without splitting it. */
export function codePointCount(text: string): number {
  let count = text.length;
  for (let i = 0; i + 1 < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit >= 0xd800 && unit <= 0xdbff) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        count--;
        i++;
      }
    }
  }
  return count;
}

/** The first `count` code points of `text`, found without splitting the whole text. */
export function firstCodePoints(text: string, count: number): string {
  let end = 0;
  for (let taken = 0; taken < count && end < text.length; taken++) {
    const unit = text.charCodeAt(end);
    const pair = unit >= 0xd800 && unit <= 0xdbff && end + 1 < text.length;
    end += pair && text.charCodeAt(end + 1) >= 0xdc00 && text.charCodeAt(end + 1) <= 0xdfff ? 2 : 1;
  }
  return text.slice(0, end);
}
