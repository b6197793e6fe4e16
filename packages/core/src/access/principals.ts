import { err, ok, type Result } from 'neverthrow';
import { type ApiError, badRequest, insufficientPermission, noSuchUser } from '../errors.js';
import { apiEmail } from '../format/user.js';
import type { Realm, Tx, User } from '../storage/types.js';
import { inaccessibleUsers } from './user-access.js';

/**
 * The users `principals` names (bulk_principals_to_user_profiles): user IDs, or API emails
 * (compared ignoring case). Any unknown user, or one of another realm, is "No such user"; a
 * deactivated one "User is deactivated", and one `actor` may not access under
 * can_access_all_users_group "Insufficient permission". Bots may be named. Duplicates collapse;
 * order is kept.
 */
export async function resolvePrincipals(
  tx: Tx,
  realm: Realm,
  actor: User,
  principals: readonly number[] | readonly string[],
): Promise<Result<User[], ApiError>> {
  // System bots are not the realm's users (the reference keeps them in another realm).
  const users = (await tx.users.list(realm.id)).filter((u) => !u.isSystemBot);
  const found: User[] = [];
  for (const principal of principals) {
    const user =
      typeof principal === 'number'
        ? users.find((u) => u.id === principal)
        : users.find((u) => apiEmail(realm, u).toLowerCase() === principal.trim().toLowerCase());
    if (!user) return err(noSuchUser());
    if (!found.includes(user)) found.push(user);
  }
  if (found.some((u) => !u.isActive)) return err(badRequest('User is deactivated'));
  if ((await inaccessibleUsers(tx, realm, actor, found)).length > 0) return err(insufficientPermission());
  return ok(found);
}

/** Whether `actor` acts for `target` directly: themselves, or a bot they own (user_directly_controls_user). */
export const controlsUser = (actor: User, target: User) => actor.id === target.id || (target.isBot && target.botOwnerId === actor.id);
