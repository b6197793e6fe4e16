import { ok } from 'neverthrow';
import { formatUserGroup } from '../format/user-group.js';
import { userOperation } from '../operation.js';
import { GetUserGroupsParams } from '../schemas/user-groups.js';

/**
 * GET /user_groups: the realm's user groups with their members; any user may read them.
 * Deactivated groups only with include_deactivated_groups. System groups are not listed yet.
 */
export const getUserGroups = userOperation(GetUserGroupsParams, async (ctx, actor, params) => {
  const groups = await ctx.storage.read((tx) => tx.userGroups.list(actor.realm.id));
  const shown = params.include_deactivated_groups ? groups : groups.filter((g) => !g.deactivated);
  return ok({ user_groups: shown.map(formatUserGroup) });
});
