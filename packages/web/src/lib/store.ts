/**
 * The one state primitive of the app: a value with subscribers. Plain TypeScript, no DOM and no
 * framework, so every store can be fed fixtures in a unit test; components read stores through
 * `useStore` (lib/use-store.ts).
 */
export interface Store<T> {
  get(): T;
  set(value: T): void;
  /** Replaces the value with `change(value)`; subscribers hear of it only when it is a new value. */
  update(change: (value: T) => T): void;
  /** Calls `listener` after every change; answers the function that unsubscribes it. */
  subscribe(listener: (value: T) => void): () => void;
}

export function createStore<T>(initial: T): Store<T> {
  let value = initial;
  const listeners = new Set<(value: T) => void>();
  const set = (next: T) => {
    if (Object.is(next, value)) return;
    value = next;
    for (const listener of [...listeners]) listener(value);
  };
  return {
    get: () => value,
    set,
    update: (change) => set(change(value)),
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
