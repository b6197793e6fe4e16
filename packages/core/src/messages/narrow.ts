/**
 * Narrows (SHAPES.md 6.1): the wire forms, their validation, and canonical operator names.
 * Resolving names and emails to IDs happens in the query layer (queries/narrow-resolve.ts).
 */
import { err, ok, type Result } from 'neverthrow';
import { ApiError, badRequest } from '../errors.js';
import { array, boolean, Int, List, object, optional, Str, tuple, unionBy } from '../schemas/wire.js';

/**
 * The most terms a narrow has. The reference sets no number, but its clients build narrows from
 * a search bar and a view (a handful of terms); each term is a condition of the query, so a
 * hostile narrow of thousands of terms would make one query of thousands of conditions.
 */
export const MAX_NARROW_TERMS = 100;
/** The longest narrow text: every term at its longest search operand, with room to spare. */
export const MAX_NARROW_CHARS = 100_000;
/**
 * The most search words, and the longest search text, over all of a narrow's `search` terms.
 * The reference sets neither (PostgreSQL answers any tsquery); here every word is a lookup in
 * the full-text index, so the words are bounded before the query is built. Fifty words is a
 * long pasted sentence; a search box has no use for more.
 */
export const MAX_SEARCH_WORDS = 50;
/** The longest search text, summed over a narrow's `search` operands (see MAX_SEARCH_WORDS). */
export const MAX_SEARCH_CHARS = 1000;

/** The most user IDs a `dm` operand lists (a group conversation's participants). */
export const MAX_NARROW_OPERAND_IDS = 1000;

/** A text, an ID, or a list of IDs: each member takes one JSON type, so the value's type picks it. */
export const NarrowOperand = unionBy([Str, Int, array(Int, MAX_NARROW_OPERAND_IDS)], (value) =>
  typeof value === 'string' ? 0 : typeof value === 'number' ? 1 : Array.isArray(value) ? 2 : -1,
);

/** `{operator, operand, negated?}` or `[operator, operand]` (legacy): a list is the legacy form. */
export const NarrowParam = List(
  unionBy([object({ operator: Str, operand: NarrowOperand, negated: optional(boolean()) }), tuple([Str, NarrowOperand])], (value) =>
    Array.isArray(value) ? 1 : 0,
  ),
  { max: MAX_NARROW_TERMS, maxChars: MAX_NARROW_CHARS },
);

export interface NarrowTerm {
  operator: string;
  operand: string | number | number[];
  negated: boolean;
}

/** Legacy and alias operator names → the canonical ones. */
const ALIASES: Record<string, string> = {
  stream: 'channel',
  streams: 'channels',
  'pm-with': 'dm',
  'group-pm-with': 'dm-including',
  subject: 'topic',
};

export const NARROW_OPERATORS = [
  'channel', 'channels', 'topic', 'sender', 'dm', 'dm-including', 'is', 'has', 'search', 'id', 'near', 'with', 'mentions',
] as const;

export const badNarrow = (what: string) => new ApiError('BAD_NARROW', `Invalid narrow operator: ${what}`);

/** The words of a search operand, as the index splits them (see storage/sqlite/message-query.ts). */
const SEARCH_WORD = /[\p{L}\p{N}_]+/gu;

/** BAD_REQUEST when the narrow's search terms together exceed MAX_SEARCH_CHARS or MAX_SEARCH_WORDS distinct words. */
function checkSearchSize(terms: readonly NarrowTerm[]): ApiError | undefined {
  let chars = 0;
  // Distinct words: a word repeated across terms is one lookup (message-query.ts compileSearches).
  const words = new Set<string>();
  for (const term of terms) {
    if (term.operator !== 'search') continue;
    const text = String(term.operand);
    chars += text.length;
    if (chars > MAX_SEARCH_CHARS) return badRequest(`Search text is too long (limit: ${MAX_SEARCH_CHARS} characters)`);
    for (const word of text.match(SEARCH_WORD) ?? []) words.add(word.toLowerCase());
    if (words.size > MAX_SEARCH_WORDS) return badRequest(`Too many search words (limit: ${MAX_SEARCH_WORDS})`);
  }
  return undefined;
}

/** Canonical terms, or BAD_NARROW for an unknown operator, or BAD_REQUEST for an oversized search. */
export function canonicalNarrow(raw: ReadonlyArray<readonly [string, unknown] | { operator: string; operand: unknown; negated?: boolean }>): Result<NarrowTerm[], ApiError> {
  const terms: NarrowTerm[] = [];
  for (const entry of raw) {
    const [rawOperator, operand, negated] = Array.isArray(entry)
      ? [entry[0] as string, entry[1], false]
      : [(entry as { operator: string }).operator, (entry as { operand: unknown }).operand, (entry as { negated?: boolean }).negated ?? false];
    // The web app's "-operator" spelling of negation.
    const flipped = rawOperator.startsWith('-');
    const name = flipped ? rawOperator.slice(1) : rawOperator;
    const operator = ALIASES[name] ?? name;
    if (!(NARROW_OPERATORS as readonly string[]).includes(operator)) return err(badNarrow('unknown operator'));
    terms.push({ operator, operand: operand as NarrowTerm['operand'], negated: negated !== flipped });
  }
  const oversized = checkSearchSize(terms);
  return oversized ? err(oversized) : ok(terms);
}
