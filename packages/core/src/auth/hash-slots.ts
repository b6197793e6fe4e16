/**
 * Bounds how many password derivations run at once. Each one at OWASP's cost holds 128 MiB and
 * a thread-pool thread (shared with file I/O), so a burst of logins must queue here rather than
 * in memory or in libuv. Waiting is bounded by the callers: logins refuse to queue past `maxWaiting`.
 */
export class HashSlots {
  private running = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(
    private readonly maxRunning: number,
    readonly maxWaiting: number,
  ) {}

  /** True when a new login would have to wait behind `maxWaiting` others. */
  get saturated(): boolean {
    return this.waiting.length >= this.maxWaiting;
  }

  /** Runs `work` once a slot is free; the slot is released however `work` ends. */
  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.running >= this.maxRunning) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.running++;
    try {
      return await work();
    } finally {
      // The slot passes straight to the next waiter, so `running` only drops when none waits.
      const next = this.waiting.shift();
      if (next) next();
      else this.running--;
    }
  }
}
