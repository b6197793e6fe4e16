/**
 * superstruct's own structs, each registered with the shortcuts that run-struct.ts may take for
 * it (see `Shortcuts`). Every struct here is superstruct's: the shortcuts only let the engine
 * skip asking a validator, entries or refiner whose answer is known. One change: `type` and
 * `object` copy the object they coerce with `copyOf` (objects.ts) rather than a spread: the same
 * copy, without a new hidden class per request for each defaulted field then added to it.
 * Schemas import these (through wire.ts) rather than superstruct's, so that a request's checks
 * cost plain calls.
 */
import {
  boolean as superBoolean,
  define as superDefine,
  never,
  nullable as superNullable,
  object as superObject,
  optional as superOptional,
  type Struct,
  tuple as superTuple,
  type as superType,
} from 'superstruct';
import { copyOf } from '../objects.js';
import { ASK, type Shortcuts, shortcutsOf, type Verdict, withShortcuts } from './run-struct.js';

type Validator = Parameters<typeof superDefine>[1];

const isNonArrayObject = (value: unknown) => typeof value === 'object' && value !== null && !Array.isArray(value);

type Coercer = Struct<unknown, unknown>['coercer'];

/** `struct` with its coercer replaced (superstruct reads it from the instance). */
function withCoercer<T extends object>(struct: T, coercer: Coercer): T {
  (struct as unknown as { coercer: Coercer }).coercer = coercer;
  return struct;
}

/** superstruct's `object` coercer: a copy, without the keys `schema` lacks when masking. */
function objectCopy(value: unknown, maskedBy: object | undefined): unknown {
  if (!isNonArrayObject(value)) return value;
  const coerced = copyOf(value as Record<string, unknown>);
  if (maskedBy) for (const key in coerced) if ((maskedBy as Record<string, unknown>)[key] === undefined) delete coerced[key];
  return coerced;
}

/** superstruct's `define`: a struct with no coercion, entries or refinements. */
export function define<T>(name: string, validator: Validator): Struct<T, null> {
  return withShortcuts(superDefine<T>(name, validator), {
    validate: (value, ctx) => validator(value, ctx as Parameters<Validator>[1]) as Verdict,
    leaf: true,
  });
}

/**
 * `define` for a validator that reads only the value (its type says so): the engine then builds
 * the struct's path and branch only for a failure (see Shortcuts.contextFree).
 */
export function leaf<T>(name: string, validator: (value: unknown) => true | string): Struct<T, null> {
  return withShortcuts(superDefine<T>(name, validator), { validate: validator, leaf: true, contextFree: true });
}

/**
 * The shortcuts of a struct built from `inner` by a wrapper that keeps its entries and refiner
 * and admits `extra` besides what `inner` accepts (`optional`: undefined, `nullable`: null).
 */
function widened(inner: Struct<unknown, unknown>, extra: unknown): Shortcuts {
  const known = shortcutsOf(inner);
  const validate = known?.validate;
  return {
    // The wrapper's validator: `extra`, or what inner's says (its failures, made again, are the same).
    validate: validate && ((value, ctx) => value === extra || validate(value, ctx)),
    leaf: known?.leaf,
    unrefined: known?.unrefined,
    contextFree: known?.contextFree,
  };
}

/** superstruct's `optional`. */
export function optional<T, S>(inner: Struct<T, S>): Struct<T | undefined, S> {
  return withShortcuts(superOptional(inner), widened(inner as Struct<unknown, unknown>, undefined));
}

/** superstruct's `nullable`. */
export function nullable<T, S>(inner: Struct<T, S>): Struct<T | null, S> {
  return withShortcuts(superNullable(inner), widened(inner as Struct<unknown, unknown>, null));
}

/** A struct made from `inner` by changing only its coercer: it keeps inner's shortcuts. */
export function recoerced<T extends object>(inner: object, struct: T): T {
  const known = shortcutsOf(inner);
  return known ? withShortcuts(struct, known) : struct;
}

type Fields = NonNullable<Shortcuts['fields']>;

/** superstruct's `type`: an object with these fields, others allowed. */
export const type: typeof superType = (schema) =>
  withShortcuts(withCoercer(superType(schema), (value) => (isNonArrayObject(value) ? copyOf(value as object) : value)), {
    validate: (value) => isNonArrayObject(value) || ASK,
    fields: { schema: schema as Fields['schema'], keys: Object.keys(schema) },
    unrefined: true,
  });

/**
 * superstruct's `object`: an object with these fields and no others. A key that is not a field
 * meets `never`, as in superstruct's (whose own `never()` is a struct like this one).
 */
export const object = ((schema?: Parameters<typeof superObject>[0]) =>
  withShortcuts(withCoercer(superObject(schema!), (value, ctx) => objectCopy(value, ctx.mask ? schema : undefined)), {
    validate: (value) => isNonArrayObject(value) || ASK,
    fields: schema ? { schema: schema as Fields['schema'], keys: Object.keys(schema), unknown: never() as unknown as Fields['unknown'] } : undefined,
    unrefined: true,
  })) as typeof superObject;

/** superstruct's `tuple`. */
export const tuple: typeof superTuple = (structs) =>
  withShortcuts(superTuple(structs), { validate: (value) => Array.isArray(value) || ASK, unrefined: true });

/** superstruct's `boolean`: a `define` whose validator is `typeof value === 'boolean'` (so is its verdict here). */
export const boolean: typeof superBoolean = () =>
  withShortcuts(superBoolean(), { validate: (value) => typeof value === 'boolean', leaf: true, contextFree: true });
