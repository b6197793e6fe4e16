/**
 * A FIFO lock: `run` calls its callbacks one at a time, in call order. It is what keeps two
 * async operations over one synchronous database connection from interleaving their statements.
 */
export class Mutex {
  private tail: Promise<unknown> = Promise.resolve();

  /** Runs `fn` once every callback queued before it has settled; resolves or rejects as `fn` does. */
  run<T>(fn: () => Promise<T>): Promise<T> {
    const result = this.tail.then(fn);
    // The next caller waits for this one to settle either way.
    this.tail = result.catch(() => undefined);
    return result;
  }
}
