/**
 * Copies of plain objects on hot paths, made so that V8 keeps one hidden class per shape.
 *
 * Node 20's V8 gives a copy made by spreading a non-empty object (`{ ...base }`) a hidden class
 * outside the transition tree: every property then added to it, in the same literal
 * (`{ ...base, extra }`) or later, makes a new hidden class, on every call. On a request path
 * that is a few hundred bytes of old-generation garbage per property per request (full
 * collections that stall the event loop for 10–20 ms every second or two under load) and
 * megamorphic property reads wherever the object goes. `Object.assign` onto an empty literal
 * has no such cost. An own `__proto__` key (JSON.parse and the parameter decoders make them)
 * would be a prototype change under `Object.assign`, so such objects keep the spread.
 */

/** `{ ...base, ...extra }`. */
export function extend<T extends object, U extends object>(base: T, extra: U): T & U {
  if (Object.hasOwn(base, '__proto__') || Object.hasOwn(extra, '__proto__')) return { ...base, ...extra };
  return Object.assign({}, base, extra);
}

/** `{ ...base }`, for a copy that properties will be added to. */
export function copyOf<T extends object>(base: T): T {
  return Object.hasOwn(base, '__proto__') ? { ...base } : Object.assign({}, base);
}
