/**
 * Presence: when each user was last active and last connected (UNIX seconds), from register's
 * slim `presences` and the simplified presence events; a user is shown active, idle or offline.
 */
export interface PresenceTimes {
  active_timestamp: number;
  idle_timestamp: number;
}

export type PresenceState = ReadonlyMap<number, PresenceTimes>;

/** Seconds without a ping after which the reference calls a user offline. */
export const OFFLINE_THRESHOLD_SECONDS = 140;

export function presenceFromMap(presences: Record<string, PresenceTimes> | undefined): PresenceState {
  return new Map(Object.entries(presences ?? {}).map(([id, times]) => [Number(id), times]));
}

export function applyPresences(state: PresenceState, presences: Record<string, PresenceTimes>): PresenceState {
  const next = new Map(state);
  for (const [id, times] of Object.entries(presences)) next.set(Number(id), times);
  return next;
}

export type PresenceStatus = 'active' | 'idle' | 'offline';

export function presenceStatus(times: PresenceTimes | undefined, nowSeconds: number, threshold = OFFLINE_THRESHOLD_SECONDS): PresenceStatus {
  if (!times) return 'offline';
  if (nowSeconds - times.active_timestamp < threshold) return 'active';
  if (nowSeconds - times.idle_timestamp < threshold) return 'idle';
  return 'offline';
}
