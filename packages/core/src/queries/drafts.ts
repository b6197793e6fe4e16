import { err, ok } from 'neverthrow';
import { type } from '../schemas/known-structs.js';
import { checkDraftsSynchronized, formatDraft } from '../drafts/fields.js';
import { unauthorized } from '../errors.js';
import { type Actor, userOperation } from '../operation.js';

/**
 * GET /drafts: the user's drafts, oldest edit first (the reference orders by last_edit_time),
 * and their count. The user is re-read so the synchronization setting is the current one.
 */
export const getDrafts = userOperation(type({}), async (ctx, { realm, user: caller }: Actor) => {
  const found = await ctx.storage.read(async (tx) => {
    const user = await tx.users.byId(realm.id, caller.id);
    return user ? { user, drafts: await tx.drafts.list(realm.id, user.id) } : undefined;
  });
  if (!found) return err(unauthorized('Account is deactivated'));
  const synchronized = checkDraftsSynchronized(found.user);
  if (synchronized.isErr()) return err(synchronized.error);
  return ok({ count: found.drafts.length, drafts: found.drafts.map(formatDraft) });
});
