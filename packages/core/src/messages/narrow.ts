/**
 * Narrows (SHAPES.md 6.1): the wire forms, their validation, and canonical operator names.
 * Resolving names and emails to IDs happens in the query layer (queries/narrow-resolve.ts).
 */
import { array, boolean, object, optional, tuple, union } from 'superstruct';
import { err, ok, type Result } from 'neverthrow';
import { ApiError } from '../errors.js';
import { Int, List, Str } from '../schemas/wire.js';

const Operand = union([Str, Int, array(Int)]);

/** `[operator, operand]` (legacy) or `{operator, operand, negated?}`. */
export const NarrowParam = List(
  union([tuple([Str, Operand]), object({ operator: Str, operand: Operand, negated: optional(boolean()) })]),
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

/** Canonical terms, or BAD_NARROW for an unknown operator. */
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
  return ok(terms);
}
