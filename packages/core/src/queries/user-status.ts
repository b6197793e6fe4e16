import { err, ok } from 'neverthrow';
import { accessUserById } from '../access/users.js';
import { type Actor, userOperation } from '../operation.js';
import { GetUserStatusParams } from '../schemas/user-status.js';
import { type ApiUserStatus, formatUserStatus } from '../format/user-status.js';

/**
 * GET /users/{user_id}/status (FL 262): an active human user's status, `{}` when they never set
 * one. Bots and unknown users are "No such user", deactivated ones "User is deactivated", and a
 * user the caller may not access (can_access_all_users_group) "Insufficient permission".
 */
export const getUserStatus = userOperation(GetUserStatusParams, async (ctx, actor: Actor, params) => {
  const found = await ctx.storage.read(async (tx) => {
    const target = await accessUserById(tx, actor, params.user_id);
    if (target.isErr()) return err(target.error);
    return ok(formatUserStatus(target.value, await tx.userStatuses.get(actor.realm.id, target.value.id)));
  });
  return found.map((status): { status: ApiUserStatus } => ({ status }));
});
