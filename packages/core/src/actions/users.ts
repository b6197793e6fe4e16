import { err, ok } from 'neverthrow';
import { ROLE, isAdmin, isGuest, isOwner } from '../access/roles.js';
import { checkFullName, checkPassword, isValidEmail } from '../access/user-input.js';
import { accessUserById, isOnlyOwner } from '../access/users.js';
import { hashPassword } from '../auth/password.js';
import { badRequest, mustBeAdmin, mustBeOwner } from '../errors.js';
import { type Actor, userOperation } from '../operation.js';
import { CreateUserParams, UpdateUserParams } from '../schemas/users.js';
import type { UserPatch } from '../storage/types.js';
import { applyProfileData, checkProfileData } from './profile-data.js';
import { transactionAs } from '../transaction.js';
import { applyUserChange } from '../users/changes.js';
import { insertUser } from '../users/records.js';

/** POST /users: an administrator with the can_create_users permission creates a member. */
export const doCreateUser = userOperation(CreateUserParams, async (ctx, actor: Actor, params) => {
  if (!isAdmin(actor.user)) return err(mustBeAdmin());
  if (!actor.user.canCreateUsers) return err(badRequest('User not authorized to create users'));
  // The reference's order: name, then email, then (in the transaction) the email's owner.
  const fullName = checkFullName(params.full_name);
  if (fullName.isErr()) return err(fullName.error);
  const email = params.email.trim();
  if (!isValidEmail(email)) return err(badRequest('Bad name or username'));
  const password = checkPassword(params.password);
  if (password.isErr()) return err(password.error);
  // Hash outside the transaction: scrypt is slow and must not hold the store.
  const passwordHash = await hashPassword(ctx, password.value);
  const created = await transactionAs(ctx, actor, async (tx, current) => {
    if (!isAdmin(current.user)) return err(mustBeAdmin());
    if (!current.user.canCreateUsers) return err(badRequest('User not authorized to create users'));
    return insertUser(ctx, tx, current.realm, {
      email,
      fullName: fullName.value,
      passwordHash,
      role: ROLE.member,
      createdThroughApi: true,
    });
  });
  return created.map((user) => ({ user_id: user.id }));
});

/** PATCH /users/{user_id}: full name, role, profile data and email of another user (API.md 4.8). */
export const doUpdateUser = userOperation(UpdateUserParams, async (ctx, requester: Actor, params) =>
  transactionAs(ctx, requester, async (tx, actor) => {
    const access = await accessUserById(tx, actor, params.user_id, {
      allowDeactivated: true,
      allowBots: true,
      forAdmin: true,
    });
    if (access.isErr()) return err(access.error);
    const target = access.value;
    const patch: UserPatch = {};

    if (params.role !== undefined && params.role !== target.role) {
      if ((params.role === ROLE.owner || isOwner(target)) && !isOwner(actor.user)) return err(mustBeOwner());
      if (await isOnlyOwner(tx, target)) {
        return err(badRequest('The owner permission cannot be removed from the only organization owner.'));
      }
      if (isGuest(target) && params.role <= ROLE.administrator) {
        return err(badRequest('Guests cannot be organization administrators'));
      }
      patch.role = params.role as UserPatch['role'];
    }

    if (params.full_name !== undefined && params.full_name.trim() !== '' && params.full_name !== target.fullName) {
      const fullName = checkFullName(params.full_name);
      if (fullName.isErr()) return err(fullName.error);
      patch.fullName = fullName.value;
    }

    const profileData = await checkProfileData(tx, actor, params.profile_data ?? [], false);
    if (profileData.isErr()) return err(profileData.error);

    if (params.new_email !== undefined && params.new_email.trim() !== target.deliveryEmail) {
      if (!isOwner(actor.user)) return err(mustBeOwner());
      if (!actor.user.canChangeUserEmails) return err(badRequest('User not authorized to change user emails'));
      const email = params.new_email.trim();
      if (!isValidEmail(email)) return err(badRequest('Invalid address.'));
      const holder = await tx.users.byDeliveryEmail(target.realmId, email);
      if (holder && holder.id !== target.id) return err(badRequest(`Email '${email}' already in use`));
      patch.deliveryEmail = email;
    }

    const changed = await applyUserChange(ctx, tx, actor.realm, target, patch);
    await applyProfileData(ctx, tx, actor.realm, changed, profileData.value);
    return ok({});
  }),
);
