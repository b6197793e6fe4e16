/**
 * JSON text for answers that repeat the same large objects. One event delivered to a thousand
 * queues carries one formatted message object; serialized through `toJson` it becomes text once,
 * not once per queue. Everything else is `JSON.stringify` with nothing added.
 *
 * Two marks, both by object identity and both opt-in, so an unmarked value costs one lookup:
 * - `serializeOnce(value)`: the value's text is kept after its first serialization and reused.
 *   The value must not change afterwards (the text would no longer match it).
 * - `withSharedParts(value, levels)`: the value's own fields or items are serialized one by one,
 *   so a part marked `serializeOnce` is found and reused. With `levels` above 1, the plain
 *   objects and arrays below it are walked too, down to that many levels, without marking each
 *   (a poll answer marks itself once for its events list and the events in it); deeper, only
 *   parts that are themselves marked are walked.
 * - `extendedCopy(base, key, value)`: `{ ...base, [key]: value }` whose text is base's text
 *   with the one field appended, so that copies of a `serializeOnce` base differing only in
 *   that field (a queued event and its ID in each queue) cost one serialization of base.
 * Values with a `toJSON` method are serialized by `JSON.stringify` as usual, unless marked
 * themselves; only plain objects and arrays are walked without a mark of their own.
 */

import { extend } from '../objects.js';

const texts = new WeakMap<object, string>();
const once = new WeakSet<object>();
/** Marked containers, with how many levels below them are walked (1: their own fields). */
const containers = new WeakMap<object, number>();
/** Copies made by `extendedCopy`: what they are a copy of, and the field added last. */
const extensions = new WeakMap<object, { base: object; key: string; value: string | number }>();

/** Marks `value` to be serialized once; returns it. It must not be changed afterwards. */
export function serializeOnce<T extends object>(value: T): T {
  once.add(value);
  return value;
}

/**
 * Marks `value` as holding parts marked `serializeOnce`, at most `levels` levels down through
 * plain objects and arrays (directly or in marked containers); returns it.
 */
export function withSharedParts<T extends object>(value: T, levels = 1): T {
  containers.set(value, Math.max(1, levels));
  return value;
}

/**
 * `{ ...base, [key]: value }`. When base is a plain object without a field `key`, the copy's
 * fields are base's in base's order and then `key`, so its JSON text is base's with the field
 * appended, which `toJson` builds from base's text (kept when base is marked `serializeOnce`).
 */
export function extendedCopy<T extends object, K extends string, V extends string | number>(base: T, key: K, value: V): T & Record<K, V> {
  const copy = extend(base, { [key]: value } as Record<K, V>);
  if (isPlain(base) && !Array.isArray(base) && !Object.hasOwn(base, key)) extensions.set(copy, { base, key, value });
  return copy;
}

/** The JSON text of `value`, equal to `JSON.stringify(value)`, reusing the text of marked parts. */
export function toJson(value: unknown): string {
  return serialize(value, 0);
}

/** `inherited`: levels its container still walks below itself (0: none). */
function serialize(value: unknown, inherited: number): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  const kept = texts.get(value);
  if (kept !== undefined) return kept;
  const extension = extensions.get(value);
  if (extension) {
    const base = serialize(extension.base, inherited);
    const field = `${JSON.stringify(extension.key)}:${JSON.stringify(extension.value)}`;
    return base === '{}' ? `{${field}}` : `${base.slice(0, -1)},${field}}`;
  }
  const own = containers.get(value);
  const levels = own ?? (inherited > 0 && isPlain(value) ? inherited : 0);
  const text = levels > 0 ? walk(value, Math.max(levels, inherited)) : JSON.stringify(value);
  if (once.has(value)) texts.set(value, text);
  return text;
}

/** Walked without a mark of its own: a plain object or array, which JSON.stringify would not treat specially. */
function isPlain(value: object): boolean {
  if (Array.isArray(value)) return true;
  const proto: unknown = Object.getPrototypeOf(value);
  return (proto === Object.prototype || proto === null) && typeof (value as { toJSON?: unknown }).toJSON !== 'function';
}

function walk(value: object, levels: number): string {
  const below = levels - 1;
  if (Array.isArray(value)) {
    let out = '[';
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i];
      if (i > 0) out += ',';
      // As JSON.stringify does: holes, undefined, functions and symbols in arrays become null.
      out += item === undefined || typeof item === 'function' || typeof item === 'symbol' ? 'null' : serialize(item, below);
    }
    return `${out}]`;
  }
  let out = '{';
  for (const key of Object.keys(value)) {
    const field: unknown = (value as Record<string, unknown>)[key];
    // As JSON.stringify does: such fields are left out of objects.
    if (field === undefined || typeof field === 'function' || typeof field === 'symbol') continue;
    if (out.length > 1) out += ',';
    out += `${JSON.stringify(key)}:${serialize(field, below)}`;
  }
  return `${out}}`;
}
