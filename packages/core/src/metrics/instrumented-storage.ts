import { performance } from 'node:perf_hooks';
import type { Result } from 'neverthrow';
import type { Storage, Tx } from '../storage/types.js';
import type { MetricsObserver } from './observer.js';

/**
 * `storage` with its transactions and reads timed for `observer`: one place that covers every
 * driver. The wrapper inherits from the driver's object, so what a driver offers besides the
 * contract (the SQLite driver's `pragma`, which readiness uses) stays reachable.
 */
export function instrumentStorage(storage: Storage, observer: MetricsObserver): Storage {
  const instrumented: Pick<Storage, 'transaction' | 'read'> = {
    async transaction<T, E>(fn: (tx: Tx) => Promise<Result<T, E>>): Promise<Result<T, E>> {
      const start = performance.now();
      let bodyEnd: number | undefined;
      let committed = false;
      try {
        const result = await storage.transaction(async (tx) => {
          const answer = await fn(tx);
          bodyEnd = performance.now();
          committed = answer.isOk();
          return answer;
        });
        return result;
      } catch (error) {
        committed = false;
        throw error;
      } finally {
        const end = performance.now();
        observer.storageTransaction((end - start) / 1000, committed && bodyEnd !== undefined ? (end - bodyEnd) / 1000 : undefined);
      }
    },
    async read<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
      const start = performance.now();
      try {
        return await storage.read(fn);
      } finally {
        observer.storageRead((performance.now() - start) / 1000);
      }
    },
  };
  return Object.assign(Object.create(storage) as Storage, instrumented);
}
