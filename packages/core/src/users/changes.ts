import { isGuest } from '../access/roles.js';
import type { Ctx } from '../context.js';
import {
  announceAvatarUpdate,
  announceDeliveryEmail,
  announcePersonUpdate,
} from '../events/realm-user.js';
import { announceBot } from '../events/realm-bot.js';
import type { PersonUpdateFields } from '../events/union/users.js';
import { apiEmail } from '../format/user.js';
import type { Realm, Tx, User, UserPatch } from '../storage/types.js';
import { announceGroupsRejoined, announceRoleGroups } from '../groups/system-group-events.js';
import { announceActivationPeers, announceRoleChannels } from '../channels/membership.js';

/**
 * Writes a change to a user and announces it: one realm_user person form per changed aspect
 * (API.md 6), realm_bot add/delete when a bot is (re)activated, and what a role or activation
 * change means for channels. The one place that knows which events a user change sends.
 * Returns the user as changed.
 */
export async function applyUserChange(ctx: Ctx, tx: Tx, realm: Realm, before: User, patch: UserPatch): Promise<User> {
  const after: User = { ...before, ...patch };
  const changed = (key: keyof User) => key in patch && (patch as Partial<User>)[key] !== before[key];
  if (!Object.keys(patch).some((key) => changed(key as keyof User))) return before;
  await tx.users.update(realm.id, before.id, patch);

  const update = (fields: PersonUpdateFields) => announcePersonUpdate(ctx, tx, realm, after, fields);
  if (changed('fullName')) await update({ full_name: after.fullName });
  if (changed('role')) {
    await update({ role: after.role });
    await announceRoleGroups(ctx, tx, realm, before, after);
    await announceRoleChannels(ctx, tx, realm, before, after);
    // A guest reads no public channel it is not subscribed to: its all_public_streams queues stop getting them.
    if (isGuest(before) !== isGuest(after)) tx.afterCommit(() => ctx.queues.setReadsPublicChannels(after.id, !isGuest(after)));
  }
  if (changed('deliveryEmail') || changed('emailAddressVisibility')) {
    await announceDeliveryEmail(ctx, tx, realm, before, after);
    if (apiEmail(realm, before) !== apiEmail(realm, after)) await update({ new_email: apiEmail(realm, after) });
  }
  if (changed('avatarSource') || changed('avatarVersion')) await announceAvatarUpdate(ctx, tx, realm, after);
  if (changed('timezone')) await update({ email: apiEmail(realm, after), timezone: after.timezone });
  if (changed('botOwnerId')) await update({ bot_owner_id: after.botOwnerId });
  if (changed('isImportedStub')) await update({ is_imported_stub: after.isImportedStub });
  if (changed('dateJoined')) await update({ date_joined: after.dateJoined });
  if (changed('isActive')) {
    // Subscribers' lists lose (or regain) the user before the realm_user update, as in the reference.
    await announceActivationPeers(ctx, tx, realm, after, after.isActive);
    await update({ is_active: after.isActive });
    if (after.isActive) await announceGroupsRejoined(ctx, tx, realm, after);
    if (after.isBot) await announceBot(ctx, tx, realm, after, after.isActive ? 'add' : 'delete');
    // A deactivated account's waiting polls are answered and its queues dropped.
    if (!after.isActive) tx.afterCommit(() => ctx.queues.deleteUserQueues(after.id));
  }
  return after;
}
