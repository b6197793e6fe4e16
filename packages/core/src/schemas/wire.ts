/**
 * Parameter types of the API. Over HTTP every value arrives as form text, and non-string
 * parameters are JSON inside that text; in-process callers pass real values. Each struct here
 * accepts both: a string is parsed as JSON (when `coerce` is on) before the type check.
 *
 * Failure messages use `{var}` for the parameter's display name (`to[0]`, `draft["topic"]`);
 * `validate.ts` substitutes it. The texts are the reference server's.
 */
import {
  array,
  coerce,
  define,
  enums,
  nullable,
  object,
  optional,
  record,
  string,
  type Struct,
  union,
} from 'superstruct';

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

/** A JSON-typed parameter: form text is parsed as JSON, then checked with `inner`. */
export function json<T, S>(inner: Struct<T, S>): Struct<T, S> {
  return coerce(inner, string(), parseJson);
}

export const Int = define<number>('integer', (v) => Number.isSafeInteger(v) || '{var} is not an integer');
export const Bool = define<boolean>('boolean', (v) => typeof v === 'boolean' || '{var} is not a boolean');
/** A raw-text parameter (never JSON-decoded). */
export const Str = define<string>('string', (v) => typeof v === 'string' || '{var} is not a string');

/** An integer parameter sent as JSON text. */
export const JsonInt = json(Int);
/** A boolean parameter sent as JSON text (`true`/`false`). */
export const JsonBool = json(Bool);

/** Integer within [min, max], with the reference's "too small"/"too large" texts. */
export const IntRange = (min: number, max: number) =>
  define<number>('integer', (v) => {
    if (!Number.isSafeInteger(v)) return '{var} is not an integer';
    if ((v as number) < min) return '{var} is too small';
    if ((v as number) > max) return '{var} is too large';
    return true;
  });

/** A string from a fixed set; anything else is "Invalid {var}". */
export const OneOf = <T extends string>(values: readonly T[]) =>
  define<T>('enum', (v) => (values as readonly unknown[]).includes(v) || 'Invalid {var}');

/** An integer from a fixed set (for example roles); anything else is "Invalid {var}". */
export const IntOneOf = (values: readonly number[]) =>
  define<number>('enum', (v) => {
    if (!Number.isSafeInteger(v)) return '{var} is not an integer';
    return values.includes(v as number) || 'Invalid {var}';
  });

/** A JSON list. */
export const List = <T>(inner: Struct<T>) => json(array(inner));

/** A non-blank string with at most `max` characters (code points), stripped by the caller. */
export const Text = (opts: { max?: number; nonBlank?: boolean } = {}) =>
  define<string>('string', (v) => {
    if (typeof v !== 'string') return '{var} is not a string';
    if (opts.nonBlank && v.trim() === '') return '{var} cannot be blank';
    if (opts.max !== undefined && [...v].length > opts.max) return `{var} is too long (limit: ${opts.max} characters)`;
    return true;
  });

/** Integer path parameter (`/users/{user_id}`): the router gives text. */
export const PathInt = coerce(Int, string(), (s) => (/^[0-9]+$/.test(s) ? Number(s) : s));

export { array, nullable, object, optional, record, union, enums };
