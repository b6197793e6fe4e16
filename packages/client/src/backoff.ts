/** Exponential backoff with jitter, for retrying after network errors and 5xx answers. */

export interface BackoffOptions {
  /** The first delay's ceiling, in ms (default 1000). */
  initialMs?: number;
  /** The largest delay, in ms (default 60000). */
  maxMs?: number;
  /** A random number in [0, 1) (default Math.random); tests pass a fixed one. */
  random?: () => number;
}

/**
 * The delay before retry number `attempt` (1 for the first): the ceiling doubles each attempt
 * up to `maxMs`, and the delay is drawn from its upper half ("equal jitter"), so that clients
 * that failed together do not retry together, yet each waits at least half the ceiling.
 */
export function backoffDelay(attempt: number, options: BackoffOptions = {}): number {
  const initial = options.initialMs ?? 1000;
  const max = options.maxMs ?? 60_000;
  const ceiling = Math.min(max, initial * 2 ** Math.max(0, attempt - 1));
  return Math.round(ceiling / 2 + (options.random ?? Math.random)() * (ceiling / 2));
}

/** Resolves after `ms`, or at once when `signal` aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}
