/**
 * Presence in its API shapes (zulip-openapi.yaml ModernPresenceFormat, LegacyPresenceFormat).
 * The modern shape is two timestamps; the legacy one is a status per "client", which since
 * FL 178 is always the one client `website` plus an `aggregated` copy.
 */
import type { User, UserPresence } from '../storage/types.js';

/**
 * A report this much newer than the last activity still counts as active in the legacy shape
 * (the reference's PRESENCE_LEGACY_EVENT_OFFSET_FOR_ACTIVITY_SECONDS).
 */
const LEGACY_ACTIVITY_OFFSET_SECONDS = 70;

/** A user's presence in the modern format: when they were last active and last connected (idle), in seconds. */
export interface ModernPresence {
  active_timestamp: number;
  idle_timestamp: number;
}

/** One client's entry of the legacy presence format (the server reports its single `website` client). */
export interface LegacyClientPresence {
  client: 'website';
  status: 'active' | 'idle';
  timestamp: number;
  pushable: false;
}

/** A user's presence in the legacy format: the aggregate and the `website` client's entry. */
export type LegacyPresence = { aggregated: Omit<LegacyClientPresence, 'pushable'>; website: LegacyClientPresence };

/** The two times of an entry; a time never reported reads as the user's join date, as in the reference. */
function times(entry: UserPresence, user: Pick<User, 'dateJoined'>): { active: number; connected: number } {
  const joined = Math.floor(Date.parse(user.dateJoined) / 1000);
  return { active: entry.lastActiveTime ?? joined, connected: entry.lastConnectedTime };
}

/** The modern shape: when the user was last active, and last connected at all. */
export function modernPresence(entry: UserPresence, user: Pick<User, 'dateJoined'>): ModernPresence {
  const { active, connected } = times(entry, user);
  return { active_timestamp: active, idle_timestamp: connected };
}

/** The one legacy client record: active (with the activity time) when the last report was active. */
export function legacyClientPresence(entry: UserPresence, user: Pick<User, 'dateJoined'>): LegacyClientPresence {
  const { active, connected } = times(entry, user);
  return active + LEGACY_ACTIVITY_OFFSET_SECONDS >= connected
    ? { client: 'website', status: 'active', timestamp: active, pushable: false }
    : { client: 'website', status: 'idle', timestamp: connected, pushable: false };
}

/** The legacy shape of GET /realm/presence and register without slim_presence: `website` plus its `aggregated` copy. */
export function legacyPresence(entry: UserPresence, user: Pick<User, 'dateJoined'>): LegacyPresence {
  const website = legacyClientPresence(entry, user);
  return { aggregated: { client: website.client, status: website.status, timestamp: website.timestamp }, website };
}
