/** Reads a store in a component, rendering again when it changes. */
import { useEffect, useState } from 'preact/hooks';
import type { Store } from './store';

export function useStore<T>(store: Store<T>): T {
  const [, setTick] = useState(0);
  useEffect(() => store.subscribe(() => setTick((tick) => tick + 1)), [store]);
  return store.get();
}
