/**
 * The `presence` event (the reference's send_presence_changed). Most presence changes reach
 * clients only through their next presence fetch; a user who comes online is announced at
 * once, so that someone who reappears and sends a message does not show as offline meanwhile.
 *
 * The event is published once with both shapes: the legacy `user_id`/`email`/
 * `server_timestamp`/`presence` fields, and the modern `presences` map for queues with the
 * simplified_presence_events capability (FL 419).
 */
import { allUsersAccessibleInRealm, splitByAccess } from '../access/user-access.js';
import type { Ctx } from '../context.js';
import type { LegacyPresenceEvent } from '../events/union/users.js';
import { apiEmail } from '../format/user.js';
import type { Realm, Tx, User, UserPresence } from '../storage/types.js';
import { legacyClientPresence, modernPresence } from './format.js';


/**
 * The users told about `user`'s presence: the realm's active users who may access them
 * (can_access_all_users_group; everyone where the realm restricts no one). Empty, without
 * reading the users' records, when more than `limit` users are active.
 */
export async function presenceAudience(tx: Tx, realm: Realm, user: User, limit: number): Promise<number[]> {
  // The narrow read first: in a large realm that is all this costs.
  const activeIds = (await tx.users.roles(realm.id)).filter((u) => u.isActive).map((u) => u.id);
  if (activeIds.length > limit) return [];
  if (allUsersAccessibleInRealm(realm)) return activeIds;
  const active = await tx.users.list(realm.id, activeIds);
  return (await splitByAccess(tx, realm, user, active)).can.map((u) => u.id);
}

/**
 * Announces `entry`, the presence just stored for `user`. Beyond `presenceEventUserLimit`
 * recipients only a forced announcement (a presence_enabled change) is sent, as the
 * reference does: in a large realm these events cost much and are seldom looked at.
 */
export async function announcePresence(ctx: Ctx, realm: Realm, user: User, entry: UserPresence, force: boolean): Promise<void> {
  const limit = force ? Number.POSITIVE_INFINITY : ctx.config.presenceEventUserLimit;
  const userIds = await ctx.storage.read((tx) => presenceAudience(tx, realm, user, limit));
  if (userIds.length === 0) return;
  const event: LegacyPresenceEvent = {
    type: 'presence',
    user_id: user.id,
    email: apiEmail(realm, user),
    server_timestamp: ctx.clock.now() / 1000,
    presence: { website: legacyClientPresence(entry, user) },
  };
  const modern = { type: 'presence', presences: { [String(user.id)]: modernPresence(entry, user) } } as const;
  ctx.events.publish({ realmId: realm.id, userIds, event, tailoring: { byCapability: { capability: 'simplified_presence_events', declared: modern } } });
}
