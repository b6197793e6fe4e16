/**
 * How one presence report changes a user's presence, as the reference decides it
 * (do_update_user_presence): which times move, whether the realm's sequence advances, and
 * whether the user just came online (the one change worth an immediate event).
 */
import type { ServerConfig } from '../config.js';
import type { UserPresence } from '../storage/types.js';
import type { RealmPresence } from './memory.js';

/**
 * A time moves only when the report is this much newer than the stored one (the reference's
 * PRESENCE_UPDATE_MIN_FREQ_SECONDS): several open clients of one user then change nothing
 * between their once-a-minute reports.
 */
export const PRESENCE_UPDATE_MIN_FREQ_SECONDS = 55;

export type PresenceStatus = 'active' | 'idle';

export interface PresenceChange {
  /** The entry now stored; undefined when the report changed nothing. */
  entry: UserPresence | undefined;
  /** The user had no presence before, or came back after long enough to look offline. */
  cameOnline: boolean;
}

/**
 * Applies a report made at `now` (Unix seconds). An idle report moves only the connected
 * time; an active one both, and it makes the user come online when their last activity is
 * older than the offline threshold less one ping interval (less 10 s of slack).
 */
export function recordPresence(
  realm: RealmPresence,
  config: Pick<ServerConfig, 'presenceOfflineThresholdSeconds' | 'presencePingIntervalSeconds'>,
  userId: number,
  status: PresenceStatus,
  now: number,
): PresenceChange {
  const active = status === 'active';
  const stored = realm.latest(userId);
  if (!stored) {
    return { entry: realm.put({ userId, lastActiveTime: active ? now : null, lastConnectedTime: now }), cameOnline: true };
  }
  // A user never active counts as long gone (the reference's one-day stand-in).
  const sinceActive = stored.lastActiveTime === null ? 86_400 : now - stored.lastActiveTime;
  const sinceConnected = now - stored.lastConnectedTime;
  const onlineGap = config.presenceOfflineThresholdSeconds - config.presencePingIntervalSeconds - 10;
  let { lastActiveTime, lastConnectedTime } = stored;
  if (sinceConnected > PRESENCE_UPDATE_MIN_FREQ_SECONDS) lastConnectedTime = now;
  if (active && sinceActive > PRESENCE_UPDATE_MIN_FREQ_SECONDS) {
    lastActiveTime = now;
    // The connected time is never older than the active time.
    if (now > lastConnectedTime) lastConnectedTime = now;
  }
  const changed = lastActiveTime !== stored.lastActiveTime || lastConnectedTime !== stored.lastConnectedTime;
  return {
    entry: changed ? realm.put({ userId, lastActiveTime, lastConnectedTime }) : undefined,
    cameOnline: active && sinceActive > onlineGap,
  };
}

/**
 * Replaces a user's presence outright (the presence_enabled setting): active now when they
 * turn presence on, and when they turn it off, idle since long enough ago that every client
 * shows them offline (the threshold plus two minutes for clock skew), as the reference does.
 */
export function replacePresence(
  realm: RealmPresence,
  config: Pick<ServerConfig, 'presenceOfflineThresholdSeconds'>,
  userId: number,
  enabled: boolean,
  now: number,
): UserPresence {
  if (enabled) return realm.put({ userId, lastActiveTime: now, lastConnectedTime: now }, true);
  return realm.put({ userId, lastActiveTime: null, lastConnectedTime: now - config.presenceOfflineThresholdSeconds - 120 }, true);
}
