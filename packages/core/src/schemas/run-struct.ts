/**
 * superstruct's `validate`, run as a plain recursive function rather than through its `run`
 * generator. Every request's parameters pass here; superstruct's engine spent most of a valid
 * request's validation on generator objects, option objects and result tuples of its own.
 *
 * This follows superstruct 2.0's `run` step for step, up to the first failure: each struct is
 * coerced, validated, walked and refined with the same values, in the same order, and a coerced
 * child is written back under the same conditions. superstruct's `validate` also stops at the
 * first failure (it reads one result of the generator; the rest are read only if
 * `StructError.failures()` is asked for, which validate.ts never does), so the input is coerced,
 * and mutated, exactly as far as there, and the first failure has the same fields.
 *
 * Where a struct carries Shortcuts (known-structs.ts, wire.ts), the engine takes what they say
 * instead of asking the struct: its validator's verdict without superstruct's generator around
 * it, its fields or items without its entries generator, no refiner or entries where it has
 * none, and no context for a leaf that never reads it. Each shortcut states exactly what the
 * struct would have answered; tests/core/validation-engine.test.ts compares both engines on
 * every parameter struct.
 */
import type { Failure, Struct } from 'superstruct';

/** A validator's own answer, as superstruct's `define` and `Struct` take it. */
export type Verdict = boolean | string | Partial<Failure> | Iterable<Partial<Failure>>;

/** Said by a Shortcuts `validate` that cannot answer for a value: the struct's validator is asked. */
export const ASK = Symbol('ask the validator');

/**
 * What the engine may take as known about a struct instead of asking it: superstruct's
 * validators, entries and refiners are generators (through its `toFailures`), and for the small
 * structs that make up a request most of the cost of a check was building and draining them.
 */
export interface Shortcuts {
  /**
   * The struct's validator's own verdict on `value`, before superstruct turns it into failures
   * (the same verdict, so the same failures), or ASK to have the struct's validator asked.
   */
  validate?: (value: unknown, ctx: Context) => Verdict | typeof ASK;
  /** The struct's entries yield nothing and its refiner finds nothing, for any value. */
  leaf?: boolean;
  /**
   * The struct's entries are superstruct's `type` or `object` ones: for an object value, each
   * of `schema`'s fields in order, read as it is reached; `unknown` (object's) after them, each
   * key of the value that is not a field, as it was before the first field was checked.
   */
  fields?: { schema: Readonly<Record<string, AnyStruct>>; keys: readonly string[]; unknown?: AnyStruct };
  /**
   * The struct's entries are wire.ts `array`'s: for an array of at most `max` items, each item
   * by index, read as it is reached (as an array iterator reads them), checked by `struct`.
   */
  items?: { struct: AnyStruct; max: number };
  /** The struct's refiner finds nothing, for any value. */
  unrefined?: boolean;
  /**
   * A leaf whose coercer and `validate` never read their context, and whose `validate` never
   * says ASK: its path and branch are built only for a failure.
   */
  contextFree?: boolean;
}

/** Where a struct keeps its shortcuts: a property of its own (a WeakMap lookup per check cost more). */
const SHORTCUTS = Symbol('run-struct shortcuts');

type WithShortcuts = { [SHORTCUTS]?: Shortcuts };

/** `struct`, with what the engine may take as known about it (see Shortcuts). */
export function withShortcuts<T extends object>(struct: T, shortcuts: Shortcuts): T {
  // One shape for every struct's shortcuts, so that the engine's reads of them stay monomorphic.
  const { validate, leaf = false, unrefined = false, fields, items, contextFree = false } = shortcuts;
  Object.defineProperty(struct, SHORTCUTS, { value: { validate, leaf, unrefined, fields, items, contextFree } });
  return struct;
}

/** The shortcuts known for `struct`, if any (for structs derived from it). */
export const shortcutsOf = (struct: object): Shortcuts | undefined => (struct as WithShortcuts)[SHORTCUTS];

/** What refused a value: the failure superstruct's StructError would carry first. */
export class Refusal {
  constructor(readonly failure: Failure) {}
}

type AnyStruct = Struct<unknown, unknown>;

/** The context superstruct hands to a struct's coercer, validator, entries and refiner. */
export interface Context {
  path: unknown[];
  branch: unknown[];
  mask: boolean;
}

const isObject = (value: unknown): value is Record<PropertyKey, unknown> => typeof value === 'object' && value !== null;

const print = (value: unknown): string =>
  typeof value === 'symbol' ? value.toString() : typeof value === 'string' ? JSON.stringify(value) : `${value}`;

/** superstruct's `toFailure`: one verdict of `struct`'s validator on `value` as a failure, or undefined. */
function toFailure(verdict: unknown, ctx: Context, struct: AnyStruct, value: unknown): Failure | undefined {
  if (verdict === true) return undefined;
  const result = (verdict === false ? {} : typeof verdict === 'string' ? { message: verdict } : verdict) as Partial<Failure>;
  const { path, branch } = ctx;
  const { type } = struct;
  const {
    refinement,
    message = `Expected a value of type \`${type}\`${refinement ? ` with refinement \`${refinement}\`` : ''}, but received: \`${print(value)}\``,
  } = result;
  return { value, type, refinement, key: path[path.length - 1], path, branch, ...result, message } as Failure;
}

/** The first failure superstruct's `toFailures` would make of a verdict, or undefined. */
function firstFailureOf(verdict: Verdict, ctx: Context, struct: AnyStruct, value: unknown): Failure | undefined {
  if (verdict === true) return undefined;
  const iterable = typeof verdict === 'object' && verdict !== null && typeof (verdict as Iterable<unknown>)[Symbol.iterator] === 'function';
  for (const one of iterable ? (verdict as Iterable<unknown>) : [verdict]) {
    const failure = toFailure(one, ctx, struct, value);
    if (failure) {
      failure.explanation = undefined;
      return failure;
    }
  }
  return undefined;
}

/** The first failure of an iterable of failures (a validator's or refiner's), or undefined. */
function firstOf(failures: Iterable<Failure>): Failure | undefined {
  for (const failure of failures) {
    // superstruct sets the explanation to its `message` option, which validation never passes.
    failure.explanation = undefined;
    return failure;
  }
  return undefined;
}

/** A coerced child written back into its parent, as superstruct's run does. */
function writeBack(current: unknown, key: unknown, result: unknown): void {
  if (current instanceof Map) current.set(key, result);
  else if (current instanceof Set) current.add(result);
  else if (isObject(current) && (result !== undefined || (key as PropertyKey) in current)) current[key as PropertyKey] = result;
}

function runFrom(value: unknown, struct: AnyStruct, path: unknown[], branch: unknown[], coerce: boolean, mask: boolean): unknown {
  const ctx: Context = { path, branch, mask };
  let current = coerce ? struct.coercer(value, ctx) : value;
  const known = (struct as WithShortcuts)[SHORTCUTS];
  const verdict = known?.validate ? known.validate(current, ctx) : ASK;
  const invalid = verdict === ASK ? firstOf(struct.validator(current, ctx)) : firstFailureOf(verdict, ctx, struct, current);
  if (invalid) return new Refusal(invalid);
  if (known?.leaf) return current;
  if (known?.fields) {
    // As type's and object's entries yield them, without their generator and tuples.
    if (isObject(current)) {
      const { schema, keys, unknown } = known.fields;
      const unknownKeys = unknown ? Object.keys(current).filter((key) => !keys.includes(key)) : [];
      const plain = coerce && !(current instanceof Map) && !(current instanceof Set);
      for (let i = 0; i < keys.length + unknownKeys.length; i++) {
        const key = i < keys.length ? keys[i]! : unknownKeys[i - keys.length]!;
        const child = current[key];
        const result = runChild(child, i < keys.length ? schema[key]! : unknown!, path, branch, key, coerce, mask);
        if (result instanceof Refusal) return result;
        // writeBack's, for an object known to be neither a Map nor a Set.
        if (plain && (result !== undefined || key in current)) current[key] = result;
        else if (coerce && !plain) writeBack(current, key, result);
      }
    }
  } else if (known?.items) {
    // As wire.ts array's entries yield them, without the generator, its iterator and tuples.
    const { struct: itemStruct, max } = known.items;
    if (Array.isArray(current) && current.length <= max) {
      for (let i = 0; i < current.length; i++) {
        const child: unknown = current[i];
        const result = runChild(child, itemStruct, path, branch, i, coerce, mask);
        if (result instanceof Refusal) return result;
        if (coerce && (result !== undefined || i in current)) current[i] = result;
      }
    }
  } else for (const [key, child, childStruct] of struct.entries(current, ctx)) {
    const result = runFrom(
      child,
      childStruct as AnyStruct,
      key === undefined ? path : [...path, key],
      key === undefined ? branch : [...branch, child],
      coerce,
      mask,
    );
    if (result instanceof Refusal) return result;
    if (!coerce) continue;
    // Written back as superstruct's run does.
    if (key === undefined) current = result;
    else writeBack(current, key, result);
  }
  if (known?.unrefined) return current;
  const unrefined = firstOf(struct.refiner(current, ctx));
  return unrefined ? new Refusal(unrefined) : current;
}

/** The context given to context-free structs, which never read it. */
const UNREAD_CONTEXT: Context = Object.freeze({ path: [], branch: [], mask: false }) as Context;

/** runFrom for the child `key` of a value, its path and branch built only when they are read. */
function runChild(child: unknown, struct: AnyStruct, path: unknown[], branch: unknown[], key: unknown, coerce: boolean, mask: boolean): unknown {
  const known = (struct as WithShortcuts)[SHORTCUTS];
  return known?.contextFree
    ? runContextFree(child, struct, known, coerce, mask, path, branch, key)
    : runFrom(child, struct, [...path, key], [...branch, child], coerce, mask);
}

/**
 * runFrom for a context-free struct (see Shortcuts.contextFree): its path and branch, those of
 * the child `key` of a value at `parentPath` (or of the top, parentPath undefined), are built
 * only for a failure.
 */
function runContextFree(
  value: unknown,
  struct: AnyStruct,
  known: Shortcuts,
  coerce: boolean,
  mask: boolean,
  parentPath?: unknown[],
  parentBranch?: unknown[],
  key?: unknown,
): unknown {
  const current = coerce ? struct.coercer(value, UNREAD_CONTEXT) : value;
  const verdict = known.validate!(current, UNREAD_CONTEXT) as Verdict;
  if (verdict === true) return current;
  const ctx: Context = parentPath
    ? { path: [...parentPath, key], branch: [...parentBranch!, value], mask }
    : { path: [], branch: [value], mask };
  const invalid = firstFailureOf(verdict, ctx, struct, current);
  return invalid ? new Refusal(invalid) : current;
}

/**
 * `value` checked (and, with `coerce`, coerced) by `struct`: the coerced value, or a Refusal
 * holding the first failure, as superstruct's `validate(value, struct, { coerce, mask })` finds it.
 */
export function runStruct<T>(value: unknown, struct: Struct<T, unknown>, options: { coerce?: boolean; mask?: boolean } = {}): T | Refusal {
  const known = (struct as WithShortcuts)[SHORTCUTS];
  const coerce = options.coerce ?? false;
  const mask = options.mask ?? false;
  if (known?.contextFree) return runContextFree(value, struct as AnyStruct, known, coerce, mask) as T | Refusal;
  return runFrom(value, struct as AnyStruct, [], [value], coerce, mask) as T | Refusal;
}
