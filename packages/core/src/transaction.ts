import { err, type Result } from 'neverthrow';
import type { Ctx } from './context.js';
import { type ApiError, unauthorized } from './errors.js';
import type { Actor } from './operation.js';
import type { Tx } from './storage/types.js';
import { withUserGroupIds } from './access/group-membership.js';

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
    const user = await tx.users.byId(actor.realm.id, actor.user.id);
    const realm = await tx.realms.byId(actor.realm.id);
    if (!user?.isActive || !realm || realm.deactivated) return err(unauthorized('Account is deactivated'));
    // The user-defined groups the actor is in, for group settings that name them.
    const [member] = await withUserGroupIds(tx, realm.id, [user]);
    return fn(tx, { realm, user: member! });
  });
}
