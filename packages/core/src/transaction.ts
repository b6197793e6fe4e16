import { err, type Result } from 'neverthrow';
import type { Ctx } from './context.js';
import { type ApiError, unauthorized } from './errors.js';
import type { Actor } from './operation.js';
import type { Tx } from './storage/types.js';
import { withGroupsOf } from './access/group-membership.js';

/**
 * Runs `fn` in a transaction with the acting user and realm as stored now. The actor given to
 * an operation was read when the request was authenticated; a request that committed since
 * (a demotion, a deactivation) must not let permission checks use the old role.
 * The actor carries the user-defined groups it is in (access/group-membership.ts).
 */
export function transactionAs<T>(
  ctx: Ctx,
  actor: Actor,
  fn: (tx: Tx, actor: Actor) => Promise<Result<T, ApiError>>,
): Promise<Result<T, ApiError>> {
  return ctx.storage.transaction(async (tx) => {
    const current = await actorIn(tx, actor.realm.id, actor.user.id);
    return current ? fn(tx, current) : err(unauthorized('Account is deactivated'));
  });
}

/**
 * The user as an actor, read in `tx`: undefined when the user or the realm is missing or
 * deactivated. The actor carries the user-defined groups it is in, for group settings that name them.
 */
export async function actorIn(tx: Tx, realmId: number, userId: number): Promise<Actor | undefined> {
  // Sent together: one round trip on a networked database (the groups are read in vain for a
  // deactivated user, which is rare).
  const [user, realm, groups] = await Promise.all([tx.users.byId(realmId, userId), tx.realms.byId(realmId), tx.userGroups.list(realmId)]);
  if (!user?.isActive || !realm || realm.deactivated) return undefined;
  const [member] = withGroupsOf(groups, [user]);
  return { realm, user: member! };
}
