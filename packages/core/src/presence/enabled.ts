/** The presence side of a user's presence_enabled setting ("invisible mode"). */
import { unixSeconds } from '../clock.js';
import type { Ctx } from '../context.js';
import type { Realm, User } from '../storage/types.js';
import { announcePresence } from './events.js';
import { realmPresence } from './memory.js';
import { replacePresence } from './record.js';

/**
 * After a committed change of the user's presence_enabled setting: replaces their presence so
 * that everyone sees the new setting at once (online now, or offline since a while), and
 * announces it to everyone who may see them, whatever the realm's size, as the reference does.
 */
export async function applyPresenceEnabled(ctx: Ctx, realm: Realm, user: User, enabled: boolean): Promise<void> {
  const memory = await realmPresence(ctx, realm.id);
  const entry = replacePresence(memory, ctx.config, user.id, enabled, unixSeconds(ctx.clock));
  await announcePresence(ctx, realm, user, entry, true);
}
