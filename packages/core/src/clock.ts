/** The time source of the core; tests inject a fake one. */
export interface Clock {
  /** Milliseconds since the Unix epoch. */
  now(): number;
}

/** The real time (`Date.now()`): the default clock. */
export const systemClock: Clock = { now: () => Date.now() };

/** Unix seconds. */
export const unixSeconds = (clock: Clock) => Math.floor(clock.now() / 1000);

/** ISO 8601 as the reference prints it: microseconds and a `+00:00` offset. */
export function isoTimestamp(clock: Clock): string {
  return new Date(clock.now()).toISOString().replace(/\.(\d{3})Z$/, '.$1000+00:00');
}
