import type { Clock } from '../clock.js';

/**
 * A sliding-window limiter: at most `limit` hits per key within `windowMs`. In memory: limits
 * reset when the server restarts, as the reference's do when its cache is cleared. A key holds
 * at most `limit` timestamps, and at most `maxKeys` keys are kept (the least recently hit are
 * forgotten first), so memory stays bounded however many keys clients make up.
 */
export class SlidingWindowCounter {
  private readonly hits = new Map<string, number[]>();

  constructor(
    private readonly clock: Clock,
    private readonly limit: number,
    private readonly windowMs: number,
    private readonly maxKeys: number = 100_000,
  ) {}

  /** Seconds until `key` may try again, or 0 when it is under the limit. */
  retryAfter(key: string): number {
    const recent = this.recent(key);
    if (recent.length < this.limit) return 0;
    return Math.max(0, (recent[recent.length - this.limit]! + this.windowMs - this.clock.now()) / 1000);
  }

  /** Counts one hit for `key` now. */
  record(key: string): void {
    const recent = this.recent(key);
    recent.push(this.clock.now());
    // Only the newest `limit` hits decide when the key may try again.
    if (recent.length > this.limit) recent.splice(0, recent.length - this.limit);
    // Re-inserting moves the key to the end of the map's order: the eviction below takes the stalest.
    this.hits.delete(key);
    this.hits.set(key, recent);
    if (this.hits.size > this.maxKeys) this.hits.delete(this.hits.keys().next().value!);
  }

  /** Takes back the newest hit of `key` (an attempt that turned out not to count). */
  unrecord(key: string): void {
    const recent = this.hits.get(key);
    recent?.pop();
    if (recent?.length === 0) this.hits.delete(key);
  }

  /** Forgets every hit of `key`. */
  clear(key: string): void {
    this.hits.delete(key);
  }

  /** Keys currently held (for tests of the memory bound). */
  get size(): number {
    return this.hits.size;
  }

  private recent(key: string): number[] {
    const since = this.clock.now() - this.windowMs;
    const recent = (this.hits.get(key) ?? []).filter((at) => at > since);
    if (recent.length === 0) this.hits.delete(key);
    return recent;
  }
}
