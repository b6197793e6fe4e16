import { err, ok, type Result } from 'neverthrow';
import { type ApiError, badRequest, insufficientPermission, noSuchUser } from '../errors.js';
import type { Realm, Tx, User } from '../storage/types.js';
import { ROLE, isAdmin, isModeratorOrAbove, isOwner, roleAtLeast } from './roles.js';
import { checkCanAccessUser } from './user-access.js';

export interface UserAccessOptions {
  allowDeactivated?: boolean;
  allowBots?: boolean;
  /** System bots (the Notification Bot) too: only reads may name them (GET /users/{id}). */
  allowSystemBots?: boolean;
  /** The requester must be an administrator ("Insufficient permission" otherwise). */
  forAdmin?: boolean;
}

/**
 * Looks up a user of the requester's realm by ID, with the reference's access rules and texts
 * (access_user_by_id): a read (not `forAdmin`) of a user the requester may not access under
 * can_access_all_users_group is "Insufficient permission"; an administrator's access is its own.
 */
export async function accessUserById(
  tx: Tx,
  { user: requester, realm }: { user: User; realm: Realm },
  userId: number,
  options: UserAccessOptions = {},
): Promise<Result<User, ApiError>> {
  const target = await tx.users.byId(requester.realmId, userId);
  if (!target) return err(noSuchUser());
  if (target.isBot && !options.allowBots) return err(noSuchUser());
  // The reference keeps system bots in another realm: no change to a realm's users reaches them.
  if (target.isSystemBot && !options.allowSystemBots) return err(noSuchUser());
  if (!target.isActive && !options.allowDeactivated) return err(badRequest('User is deactivated'));
  if (!options.forAdmin) return checkCanAccessUser(tx, realm, requester, target);
  if (!isAdmin(requester)) return err(insufficientPermission());
  return ok(target);
}

/**
 * Whether `viewer` may see `target`'s real email address under the target's
 * email_address_visibility setting. Spectators (viewer null) never may.
 */
export function canSeeDeliveryEmail(viewer: User | null, target: User): boolean {
  if (!viewer) return false;
  if (viewer.id === target.id || target.isBot) return true;
  switch (target.emailAddressVisibility) {
    case 1:
      return true;
    case 2:
      return roleAtLeast(viewer, ROLE.member);
    case 3:
      return isAdmin(viewer);
    case 5:
      return isModeratorOrAbove(viewer);
    default:
      return false;
  }
}

/**
 * Whether `target` is the realm's only active human owner, whose owner role may not be removed
 * and who may not be deactivated. Bots never count as owners here, as in the reference; a
 * deactivated owner is not "the only owner" either, since the active owners stay.
 */
export async function isOnlyOwner(tx: Tx, target: User): Promise<boolean> {
  if (!isOwner(target) || target.isBot || !target.isActive) return false;
  return (await tx.users.countActiveHumanOwners(target.realmId)) <= 1;
}
