/**
 * Operations whose requests are not counted by the rate limits: the long-poll GET /events, as in
 * the reference (a client holds one open at all times and sends the next as soon as one returns,
 * so counting them would spend a user's allowance on waiting).
 */
const exempt = new WeakSet<object>();

/** Marks `operation` as not counted; returns it, for use where it is defined. */
export function notRateLimited<Op extends object>(operation: Op): Op {
  exempt.add(operation);
  return operation;
}

/** Whether requests for `operation` count against the rate limits. */
export const isRateLimited = (operation: object): boolean => !exempt.has(operation);
