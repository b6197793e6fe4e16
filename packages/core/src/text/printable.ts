/**
 * The reference's check_string_is_printable (zerver/lib/string_validation.py): names, topics and
 * descriptions refuse control characters, lone surrogates and Unicode noncharacters.
 */

/** Control characters, surrogates and the 66 Unicode noncharacters (is_character_printable). */
const UNPRINTABLE = /[\p{Cc}\p{Cs}\u{FDD0}-\u{FDEF}]|[\u{FFFE}\u{FFFF}\u{1FFFE}\u{1FFFF}\u{2FFFE}\u{2FFFF}\u{3FFFE}\u{3FFFF}\u{4FFFE}\u{4FFFF}\u{5FFFE}\u{5FFFF}\u{6FFFE}\u{6FFFF}\u{7FFFE}\u{7FFFF}\u{8FFFE}\u{8FFFF}\u{9FFFE}\u{9FFFF}\u{AFFFE}\u{AFFFF}\u{BFFFE}\u{BFFFF}\u{CFFFE}\u{CFFFF}\u{DFFFE}\u{DFFFF}\u{EFFFE}\u{EFFFF}\u{FFFFE}\u{FFFFF}\u{10FFFE}\u{10FFFF}]/u;

/**
 * check_string_is_printable: the 1-based position (in code points) of the first unprintable
 * character, or 0 when there is none. Walks the text once, without building an array of its characters.
 */
export function unprintablePosition(text: string): number {
  const found = UNPRINTABLE.exec(text);
  if (!found) return 0;
  let position = 1;
  for (let i = 0; i < found.index; i++) {
    const unit = text.charCodeAt(i);
    // A surrogate pair before the match is one character (a lone one would have matched).
    if (unit >= 0xd800 && unit <= 0xdbff) i++;
    position++;
  }
  return position;
}
