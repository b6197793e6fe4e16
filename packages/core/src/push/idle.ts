/**
 * Who counts as away for push notifications (the reference's tornado idle test): no client of
 * theirs is receiving message events (receiver_is_off_zulip), or, where the realm keeps
 * presence, none of their clients reported activity within the offline threshold
 * (filter_presence_idle_user_ids): an open but unattended tab does not hold back notifications.
 */
import type { Ctx } from '../context.js';
import { realmPresence } from '../presence/memory.js';
import { realmSetting } from '../settings/realm-settings.js';
import type { Realm, Tx } from '../storage/types.js';

/** The users among `userIds` who are away; `tx` is the caller's read (presence may load from it). */
export async function awayUsers(ctx: Ctx, tx: Tx, realm: Realm, userIds: readonly number[]): Promise<Set<number>> {
  const away = new Set(userIds.filter((id) => !ctx.queues.receivesMessages(id)));
  if (away.size === userIds.length || realmSetting(realm, 'presence_disabled')) return away;
  const presence = await realmPresence(ctx, realm.id, tx);
  const recent = Math.floor(ctx.clock.now() / 1000) - ctx.config.presenceOfflineThresholdSeconds;
  for (const id of userIds) {
    const lastActive = presence.latest(id)?.lastActiveTime ?? null;
    if (lastActive === null || lastActive < recent) away.add(id);
  }
  return away;
}
