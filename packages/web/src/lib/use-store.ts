/** Reads a store in a component, rendering again when it changes. */
import { useEffect, useState } from 'preact/hooks';
import type { Store } from './store';

export function useStore<T>(store: Store<T>): T {
  const value = store.get();
  const [, setTick] = useState(0);
  useEffect(() => {
    const rerender = () => setTick((tick) => tick + 1);
    const unsubscribe = store.subscribe(rerender);
    // A change between this render and the subscription would otherwise go unseen.
    if (store.get() !== value) rerender();
    return unsubscribe;
  }, [store]);
  return value;
}
