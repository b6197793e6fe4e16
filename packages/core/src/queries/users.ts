import { err, ok } from 'neverthrow';
import { accessibleUserIds, checkCanAccessUser, isAccessible } from '../access/user-access.js';
import { canSeeDeliveryEmail } from '../access/users.js';
import { badRequest, noSuchUser, unauthorized } from '../errors.js';
import { profileDataByUser } from '../format/profile-field.js';
import { apiEmail, formatUser } from '../format/user.js';
import { type Actor, spectatorOperation, userOperation } from '../operation.js';
import { isRealmMember } from '../system-bots/notification-bot.js';
import type { Tx, User } from '../storage/types.js';
import { GetOwnUserParams, GetUserParams, GetUsersParams } from '../schemas/users.js';
import { extend } from '../objects.js';

/**
 * GET /users (API.md 4.4): the users the caller may access. A guest restricted by
 * can_access_all_users_group gets no placeholders here, as in the reference (which builds this
 * list as if the client had user_list_incomplete). Spectators may call it when the realm has the
 * public access option (FL 387); they never see real email addresses.
 */
export const getUsers = spectatorOperation(GetUsersParams, async (ctx, caller, params) => {
  if (!caller.user && !caller.realm.webPublicAccessEnabled) return err(unauthorized());
  const [users, profileData, accessible] = await ctx.storage.read(async (tx) => [
    // System bots are register's cross_realm_bots, not members (the reference keeps them in another realm).
    (await tx.users.list(caller.realm.id, params.user_ids)).filter(isRealmMember),
    params.include_custom_profile_fields ? await profileDataByUser(tx, caller.realm.id, params.user_ids) : undefined,
    await accessibleUserIds(tx, caller.realm, caller.user),
  ] as const);
  if (params.user_ids) {
    const found = new Set(users.map((u) => u.id));
    const missing = params.user_ids.find((id) => !found.has(id));
    if (missing !== undefined) return err(badRequest(`Invalid user ID: ${missing}`));
  }
  const view = {
    viewer: caller.user,
    clientGravatar: caller.user ? params.client_gravatar : false,
    includeCustomProfileFields: params.include_custom_profile_fields,
    profileData,
  };
  const members = users.filter((user) => isAccessible(accessible, user)).map((user) => formatUser(caller.realm, user, view));
  return ok({ members });
});

/** GET /users/{user_id} and GET /users/{email}: one user, wrapped as `user`. */
export const getUser = userOperation(GetUserParams, async (ctx, actor: Actor, params) => {
  const key = params.user_id.trim();
  const found = await ctx.storage.read(async (tx) => {
    const target = await findUser(tx, actor, key);
    return target && (await checkCanAccessUser(tx, actor.realm, actor.user, target));
  });
  if (!found) return err(noSuchUser());
  if (found.isErr()) return err(found.error);
  const target = found.value;
  const view = {
    viewer: actor.user,
    clientGravatar: params.client_gravatar,
    includeCustomProfileFields: params.include_custom_profile_fields,
    profileData: params.include_custom_profile_fields
      ? await ctx.storage.read((tx) => profileDataByUser(tx, actor.realm.id, [target.id]))
      : undefined,
  };
  return ok({ user: formatUser(actor.realm, target, view) });
});

/** The user GET /users/{user_id} or GET /users/{email} (or /avatar/{…}) names, before the access check. */
export async function findUser(tx: Tx, actor: Actor, key: string): Promise<User | undefined> {
  if (/^[0-9]+$/.test(key)) {
    return tx.users.byId(actor.realm.id, Number(key));
  }
  // By email: the real address where the requester may see it, or the API email.
  const byEmail = await tx.users.byDeliveryEmail(actor.realm.id, key);
  if (byEmail && (canSeeDeliveryEmail(actor.user, byEmail) || apiEmail(actor.realm, byEmail) === byEmail.deliveryEmail)) {
    return byEmail;
  }
  const dummy = /^user([0-9]+)@/i.exec(key);
  const byId = dummy ? await tx.users.byId(actor.realm.id, Number(dummy[1])) : undefined;
  return byId && apiEmail(actor.realm, byId).toLowerCase() === key.toLowerCase() ? byId : undefined;
}

/** GET /users/me: the caller's own record, flat, with max_message_id (the newest message they have a copy of; -1: none). */
export const getOwnUser = userOperation(GetOwnUserParams, async (ctx, actor: Actor) => {
  const { profileData, maxMessageId } = await ctx.storage.read(async (tx) => ({
    profileData: await profileDataByUser(tx, actor.realm.id, [actor.user.id]),
    maxMessageId: await tx.messages.maxMessageId(actor.user.id),
  }));
  const record = formatUser(actor.realm, actor.user, { viewer: actor.user, clientGravatar: false, includeCustomProfileFields: true, profileData });
  return ok(extend(record, { max_message_id: maxMessageId }));
});
