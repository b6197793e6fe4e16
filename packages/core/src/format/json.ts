/**
 * JSON text for answers that repeat the same large objects. One event delivered to a thousand
 * queues carries one formatted message object; serialized through `toJson` it becomes text once,
 * not once per queue. Everything else is `JSON.stringify` with nothing added.
 *
 * Two marks, both by object identity and both opt-in, so an unmarked value costs one lookup:
 * - `serializeOnce(value)`: the value's text is kept after its first serialization and reused.
 *   The value must not change afterwards (the text would no longer match it).
 * - `withSharedParts(value)`: the value's own fields or items are serialized one by one, so a
 *   part marked `serializeOnce` (at any depth of marked containers) is found and reused.
 * Inside a marked container, values with a `toJSON` method are serialized by `JSON.stringify`
 * as usual; only the container itself is walked by hand.
 */

const texts = new WeakMap<object, string>();
const once = new WeakSet<object>();
const containers = new WeakSet<object>();

/** Marks `value` to be serialized once; returns it. It must not be changed afterwards. */
export function serializeOnce<T extends object>(value: T): T {
  once.add(value);
  return value;
}

/** Marks `value` as holding parts marked `serializeOnce` (directly or in marked containers); returns it. */
export function withSharedParts<T extends object>(value: T): T {
  containers.add(value);
  return value;
}

/** The JSON text of `value`, equal to `JSON.stringify(value)`, reusing the text of marked parts. */
export function toJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  const kept = texts.get(value);
  if (kept !== undefined) return kept;
  if (once.has(value)) {
    const text = containers.has(value) ? walk(value) : JSON.stringify(value);
    texts.set(value, text);
    return text;
  }
  return containers.has(value) ? walk(value) : JSON.stringify(value);
}

function walk(value: object): string {
  if (Array.isArray(value)) {
    let out = '[';
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i];
      if (i > 0) out += ',';
      // As JSON.stringify does: holes, undefined, functions and symbols in arrays become null.
      out += item === undefined || typeof item === 'function' || typeof item === 'symbol' ? 'null' : toJson(item);
    }
    return `${out}]`;
  }
  let out = '{';
  for (const key of Object.keys(value)) {
    const field: unknown = (value as Record<string, unknown>)[key];
    // As JSON.stringify does: such fields are left out of objects.
    if (field === undefined || typeof field === 'function' || typeof field === 'symbol') continue;
    if (out.length > 1) out += ',';
    out += `${JSON.stringify(key)}:${toJson(field)}`;
  }
  return `${out}}`;
}
