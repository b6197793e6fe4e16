/**
 * The unicode emoji table: the reference's `name_to_codepoint` and `codepoint_to_name`.
 * The data is generated (scripts/generate-emoji.ts) and committed; this file only indexes it.
 */
import { UNICODE_EMOJI_TABLE } from './unicode-emoji-data.js';

interface UnicodeEmojiIndex {
  /** Every name, canonical or alias → code. */
  readonly nameToCode: ReadonlyMap<string, string>;
  /** Code → canonical name. */
  readonly codeToName: ReadonlyMap<string, string>;
}

let index: UnicodeEmojiIndex | undefined;

/** Built on first use (~2,000 names, about a millisecond), so importing the core stays cheap. */
function unicodeEmojiIndex(): UnicodeEmojiIndex {
  if (index) return index;
  const nameToCode = new Map<string, string>();
  const codeToName = new Map<string, string>();
  for (const line of UNICODE_EMOJI_TABLE.split('\n')) {
    if (line === '') continue;
    const [code, ...names] = line.split(' ') as [string, string, ...string[]];
    codeToName.set(code, names[0]);
    for (const name of names) nameToCode.set(name, code);
  }
  index = { nameToCode, codeToName };
  return index;
}

/** The code of the unicode emoji with this name (canonical or alias), as `name_to_codepoint`. */
export const unicodeEmojiByName = (name: string): string | undefined => unicodeEmojiIndex().nameToCode.get(name);

/** The canonical name of the unicode emoji with this code, as `codepoint_to_name`. */
export const unicodeEmojiByCode = (code: string): string | undefined => unicodeEmojiIndex().codeToName.get(code);

/**
 * Whether the server knows this unicode emoji code. The reference checks codes against its table,
 * not merely their hex shape, and so does this.
 */
export const isValidEmojiCode = (code: string): boolean => unicodeEmojiIndex().codeToName.has(code);

/** Every unicode emoji name, canonical names and aliases alike (for typeahead and tests). */
export const unicodeEmojiNames = (): IterableIterator<string> => unicodeEmojiIndex().nameToCode.keys();
