/**
 * Who sees whose presence (the reference's get_presence_dict_by_realm): the active human users
 * of the viewer's realm that the viewer may access (can_access_all_users_group), with a report
 * within the history window or newer than what the client already has. A realm that disabled
 * presence shows none. The entries come from memory; the store gives only the users' records.
 */
import { accessibleUserIds, isAccessible } from '../access/user-access.js';
import type { Ctx } from '../context.js';
import { unixSeconds } from '../clock.js';
import { apiEmail } from '../format/user.js';
import { realmSetting } from '../settings/realm-settings.js';
import type { Realm, Tx, User, UserPresence } from '../storage/types.js';
import { type LegacyPresence, legacyPresence, type ModernPresence, modernPresence } from './format.js';
import { realmPresence } from './memory.js';

/** The reference's window when the client names none. */
const DEFAULT_HISTORY_DAYS = 14;

export interface PresenceQuery {
  /** Keys are user IDs with the modern shape (true), or API emails with the legacy one. */
  slim: boolean;
  /** The `presence_last_update_id` the client has; only newer changes are returned. */
  lastUpdateId?: number;
  /** How far back the first fetch goes; 0 returns nothing. */
  historyLimitDays?: number;
}

/** One user's presence: the modern shape keyed by user ID, or the legacy one keyed by API email. */
export type ApiPresence = ModernPresence | LegacyPresence;

/** The realm's presence as GET /realm/presence, POST /users/me/presence and register carry it. */
export interface PresenceAnswer {
  presences: Record<string, ApiPresence>;
  /** The newest change returned, the client's own value when nothing is newer, else -1. */
  presence_last_update_id: number;
  /** Seconds, with a fraction, as the reference's time.time(). */
  server_timestamp: number;
}

/** The entries `query` selects, before the users are known. */
function selectEntries(entries: Iterable<UserPresence>, query: PresenceQuery, now: number): UserPresence[] {
  if (query.historyLimitDays === 0) return [];
  const since = now - (query.historyLimitDays ?? DEFAULT_HISTORY_DAYS) * 86_400;
  const after = query.lastUpdateId;
  // A client that has data already asks by sequence alone; the window bounds the first fetch.
  const windowed = after === undefined || after <= 0;
  const selected: UserPresence[] = [];
  for (const entry of entries) {
    if (after !== undefined && entry.lastUpdateId <= after) continue;
    if (windowed && entry.lastConnectedTime < since) continue;
    selected.push(entry);
  }
  return selected;
}

/** The presence `viewer` may see in their realm, as of now. */
export async function presenceForViewer(ctx: Ctx, tx: Tx, realm: Realm, viewer: User, query: PresenceQuery): Promise<PresenceAnswer> {
  const server_timestamp = ctx.clock.now() / 1000;
  if (realmSetting(realm, 'presence_disabled')) return { presences: {}, presence_last_update_id: -1, server_timestamp };
  const memory = await realmPresence(ctx, realm.id, tx);
  // Taken at once: reports arriving while the users are read wait for the next fetch.
  const entries = selectEntries(memory.entries.values(), query, unixSeconds(ctx.clock));
  const users = entries.length === 0 ? [] : await tx.users.list(realm.id, entries.map((entry) => entry.userId));
  const accessible = users.length === 0 ? null : await accessibleUserIds(tx, realm, viewer);
  const shown = new Map<number, User>();
  for (const user of users) if (user.isActive && !user.isBot && isAccessible(accessible, user)) shown.set(user.id, user);
  const presences: Record<string, ApiPresence> = {};
  let newest = -1;
  for (const entry of entries) {
    const user = shown.get(entry.userId);
    if (!user) continue;
    newest = Math.max(newest, entry.lastUpdateId);
    if (query.slim) presences[String(user.id)] = modernPresence(entry, user);
    else presences[apiEmail(realm, user)] = legacyPresence(entry, user);
  }
  const presence_last_update_id = newest >= 0 ? newest : (query.lastUpdateId ?? -1);
  return { presences, presence_last_update_id, server_timestamp };
}
