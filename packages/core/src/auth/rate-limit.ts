import type { Clock } from '../clock.js';

/**
 * A sliding-window limiter: at most `limit` hits per key within `windowMs`. Used for failed
 * password logins (the reference allows 5 per username per 30 minutes). In memory: limits
 * reset when the server restarts, as the reference's do when its cache is cleared.
 */
export class RateLimiter {
  private readonly hits = new Map<string, number[]>();

  constructor(
    private readonly clock: Clock,
    private readonly limit: number,
    private readonly windowMs: number,
  ) {}

  /** Seconds until `key` may try again, or 0 when it is under the limit. */
  retryAfter(key: string): number {
    const recent = this.recent(key);
    if (recent.length < this.limit) return 0;
    return (recent[0]! + this.windowMs - this.clock.now()) / 1000;
  }

  record(key: string): void {
    const recent = this.recent(key);
    recent.push(this.clock.now());
    this.hits.set(key, recent);
  }

  private recent(key: string): number[] {
    const since = this.clock.now() - this.windowMs;
    const recent = (this.hits.get(key) ?? []).filter((at) => at > since);
    if (recent.length === 0) this.hits.delete(key);
    return recent;
  }
}
