/**
 * Parameter types of the API. Over HTTP every value arrives as form text, and non-string
 * parameters are JSON inside that text; in-process callers pass real values. Each struct here
 * accepts both: a string is parsed as JSON (when `coerce` is on) before the type check.
 *
 * Failure messages use `{var}` for the parameter's display name (`to[0]`, `draft["topic"]`);
 * `validate.ts` substitutes it. The texts are the reference server's.
 */
import { array as unboundedArray, enums, record, Struct, type type, union } from 'superstruct';
import { exceedsCodePoints } from '../text/length.js';
import { unprintablePosition } from '../text/printable.js';
import { define, leaf, nullable, object, optional, recoerced } from './known-structs.js';
import { Refusal, runStruct, withShortcuts } from './run-struct.js';

/** Marks a value that was sent as text but is not valid JSON. */
export const INVALID_JSON = Symbol('invalid-json');

/**
 * The reference parses with orjson, which refuses documents nested deeper than 1024 levels.
 * Refusing them here too also keeps absurdly deep values away from the validators, whose
 * recursive checks and messages would overflow the stack.
 */
const MAX_JSON_DEPTH = 1024;

/** Whether arrays and objects in `text` nest deeper than MAX_JSON_DEPTH (strings skipped). */
function nestsTooDeep(text: string): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '[' || c === '{') {
      if (++depth > MAX_JSON_DEPTH) return true;
    } else if (c === ']' || c === '}') depth--;
  }
  return false;
}

const parseJson = (text: string): unknown => {
  if (nestsTooDeep(text)) return INVALID_JSON;
  try {
    return JSON.parse(text);
  } catch {
    return INVALID_JSON;
  }
};

/**
 * The longest JSON parameter text parsed by default. The body limit (25 MiB) is far above any
 * sane parameter, and parsing and walking a value costs time and memory in its size, so text
 * over this is refused before it is parsed. Parameters that may legitimately be larger say so.
 */
export const MAX_JSON_TEXT_CHARS = 1_000_000;

/** Stands for JSON text refused by size before parsing; `validate.ts` names the limit. */
export class OversizedJson {
  constructor(readonly limit: number) {}
}

/**
 * `struct`, with string input first mapped through `fromString` (when `coerce` is on): superstruct's
 * `coerce(struct, string(), fn)` without its cost on values that are not strings. That one asks
 * `is(value, string())`, which builds (and throws away) a StructError with a stack trace for every
 * absent optional or defaulted boolean of every valid request.
 */
export function fromText<T, S>(struct: Struct<T, S>, fromString: (text: string) => unknown): Struct<T, S> {
  return recoerced(
    struct,
    new Struct({
      ...struct,
      coercer: (value, ctx) => struct.coercer(typeof value === 'string' ? fromString(value) : value, ctx),
    }),
  );
}

/**
 * A JSON-typed parameter: form text is parsed as JSON, then checked with `inner`. Text longer
 * than `maxChars` is refused unparsed ("{var} is too long").
 */
export function json<T, S>(inner: Struct<T, S>, maxChars: number = MAX_JSON_TEXT_CHARS): Struct<T, S> {
  return fromText(inner, (text) => (text.length > maxChars ? new OversizedJson(maxChars) : parseJson(text)));
}

export const Int = leaf<number>('integer', (v) => Number.isSafeInteger(v) || '{var} is not an integer');
export const Bool = leaf<boolean>('boolean', (v) => typeof v === 'boolean' || '{var} is not a boolean');
/** A raw-text parameter (never JSON-decoded). */
export const Str = leaf<string>('string', (v) => typeof v === 'string' || '{var} is not a string');

/** An integer parameter sent as JSON text. */
export const JsonInt = json(Int);
/** A boolean parameter sent as JSON text (`true`/`false`). */
export const JsonBool = json(Bool);

/** Integer within [min, max], with the reference's "too small"/"too large" texts. */
export const IntRange = (min: number, max: number) =>
  leaf<number>('integer', (v) => {
    if (!Number.isSafeInteger(v)) return '{var} is not an integer';
    if ((v as number) < min) return '{var} is too small';
    if ((v as number) > max) return '{var} is too large';
    return true;
  });

/** A string from a fixed set; anything else is "Invalid {var}". */
export const OneOf = <T extends string>(values: readonly T[]) =>
  leaf<T>('enum', (v) => (values as readonly unknown[]).includes(v) || 'Invalid {var}');

/** An integer from a fixed set (for example roles); anything else is "Invalid {var}". */
export const IntOneOf = (values: readonly number[]) =>
  leaf<number>('enum', (v) => {
    if (!Number.isSafeInteger(v)) return '{var} is not an integer';
    return values.includes(v as number) || 'Invalid {var}';
  });

/** The most items a list takes when its parameter names no tighter limit. */
export const DEFAULT_MAX_ITEMS = 10_000;

/**
 * A list of at most `max` items. The count is checked before any item is, and an over-long
 * list yields no items to check, so refusing it costs the same whatever its length (superstruct's
 * unions drain every failure of a branch, so a bare `array` inside one would walk it all).
 */
export function array<T, S>(inner: Struct<T, S>, max: number = DEFAULT_MAX_ITEMS): Struct<T[], Struct<T, S>> {
  const base = unboundedArray(inner);
  const validator = (value: unknown) => {
    if (!Array.isArray(value)) return '{var} is not a list';
    return value.length <= max || `{var} has too many items (limit: ${max})`;
  };
  const struct: Struct<T[], Struct<T, S>> = new Struct({
    type: 'array',
    schema: inner,
    coercer: base.coercer,
    validator,
    *entries(value) {
      if (!Array.isArray(value) || value.length > max) return;
      for (const [i, item] of value.entries()) yield [i, item, inner];
    },
  });
  return withShortcuts(struct, { validate: validator, items: { struct: inner as Struct<unknown, unknown>, max }, unrefined: true });
}

/**
 * A JSON list of at most `max` items (default DEFAULT_MAX_ITEMS) whose text has at most
 * `maxChars` characters (default MAX_JSON_TEXT_CHARS).
 */
export const List = <T>(inner: Struct<T>, opts: { max?: number; maxChars?: number } = {}) =>
  json(array(inner, opts.max), opts.maxChars);

/**
 * A union whose member is chosen by the value's shape (`pick` returns the index of the only
 * member that could accept it, or -1 for none), for members that accept disjoint shapes.
 * superstruct's `union` tries members in turn, and every member that refuses a valid value
 * builds a StructError (with a stack trace) while coercing: an integer operand of a narrow
 * cost two. Refusals read the same as `union`'s ("Invalid {var}" at the union's path).
 */
export function unionBy<A, B, C = never>(
  members: readonly [Struct<A, unknown>, Struct<B, unknown>, Struct<C, unknown>?],
  pick: (value: unknown) => number,
): Struct<A | B | C, null> {
  const description = members.map((member) => member!.type).join(' | ');
  const memberFor = (value: unknown) => members[pick(value)] as Struct<A | B | C, unknown> | undefined;
  const validator = (value: unknown) => {
    const member = memberFor(value);
    // The message is union's own, word for word.
    if (member && !(runStruct(value, member) instanceof Refusal)) return [];
    return `Expected the value to satisfy a union of \`${description}\`, but received: ${typeof value === 'string' ? JSON.stringify(value) : `${value}`}`;
  };
  const struct: Struct<A | B | C, null> = new Struct({
    type: 'union',
    schema: null,
    coercer(value, ctx) {
      const member = memberFor(value);
      if (!member) return value;
      const coerced = runStruct(value, member, { coerce: true, mask: ctx.mask });
      return coerced instanceof Refusal ? value : coerced;
    },
    validator,
  });
  // No entries, no refiner: the member's were run by the coercer and the validator.
  return withShortcuts(struct, { validate: validator, leaf: true });
}

/** Characters per item a list of IDs may spend (digits, a comma, generous spacing). */
const CHARS_PER_ID = 24;

/** A JSON list of at most `max` integers, its text refused by size before it is parsed. */
export const IdList = (max: number) => List(Int, { max, maxChars: max * CHARS_PER_ID + 64 });

/**
 * A string with at most `max` characters (code points); `nonBlank` refuses one that is blank
 * after stripping (the caller strips). `printable` refuses control characters, lone surrogates
 * and noncharacters, as the reference's check_string_is_printable does for names; `noNul`
 * refuses only NUL, which the reference's database cannot store (free text such as descriptions).
 */
export const Text = (opts: { max?: number; nonBlank?: boolean; printable?: boolean; noNul?: boolean } = {}) =>
  leaf<string>('string', (v) => {
    if (typeof v !== 'string') return '{var} is not a string';
    // Blank before long, as the reference strips before it measures; both cost one pass at most.
    if (opts.nonBlank && v.trim() === '') return '{var} cannot be blank';
    if (opts.max !== undefined && exceedsCodePoints(v, opts.max)) return `{var} is too long (limit: ${opts.max} characters)`;
    if (opts.noNul && v.includes('\0')) return '{var} must not contain null bytes';
    const position = opts.printable ? unprintablePosition(v) : 0;
    return position === 0 || `Invalid character in {var}, at position ${position}.`;
  });

/** Integer path parameter (`/users/{user_id}`): the router gives text. */
export const PathInt = fromText(Int, (s) => (/^[0-9]+$/.test(s) ? Number(s) : s));

/**
 * A field's struct of any value type, as superstruct's object schemas hold them: the value type
 * is both read and written by a struct, so no narrower type admits every field.
 */
export type FieldStruct = Parameters<typeof type>[0][string];

declare const FILLED_WHEN_ABSENT: unique symbol;

/**
 * A struct that fills in its value when the parameter is absent: the parsed value is always
 * there, but callers may leave it out. The mark exists only in the type (see `InputOf`).
 */
export type Defaulted<T, S> = Struct<T, S> & FilledWhenAbsent;

/** The type-only mark of a `Defaulted` struct. */
export interface FilledWhenAbsent {
  readonly [FILLED_WHEN_ABSENT]: true;
}

const isPlainObject = (value: unknown): value is Record<string, unknown> => {
  if (Object.prototype.toString.call(value) !== '[object Object]') return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === null || prototype === Object.prototype;
};

/**
 * superstruct's `defaulted`, marked so that the parameter is optional in the operation's input
 * type. Its coercion is superstruct's own, step for step, without the `is(value, unknown())`
 * that superstruct's `coerce` asks first: that check always passes, and it ran a whole
 * validation for every defaulted parameter of every request.
 */
export function defaulted<T, S>(struct: Struct<T, S>, fallback: T | (() => T)): Defaulted<T, S> {
  const fill = (value: unknown): unknown => {
    const filler = typeof fallback === 'function' ? (fallback as () => T)() : fallback;
    if (value === undefined) return filler;
    // An object is completed key by key from an object default (superstruct's non-strict mode).
    if (isPlainObject(value) && isPlainObject(filler)) {
      const completed: Record<string, unknown> = { ...value };
      let changed = false;
      for (const key in filler) {
        if (completed[key] === undefined) {
          completed[key] = filler[key];
          changed = true;
        }
      }
      if (changed) return completed;
    }
    return value;
  };
  return recoerced(struct, new Struct({ ...struct, coercer: (value, ctx) => struct.coercer(fill(value), ctx) })) as Defaulted<T, S>;
}

export { define, nullable, object, optional, record, union, enums };
export { boolean, tuple } from './known-structs.js';
/** Exported for tests that compare a struct of this file with superstruct's own, and run-struct.ts with superstruct's engine. */
export { Struct, type StructError, validate as superstructValidate } from 'superstruct';
