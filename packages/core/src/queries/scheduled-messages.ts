import { err, ok } from 'neverthrow';
import { type } from '../schemas/known-structs.js';
import { unauthorized } from '../errors.js';
import { type Actor, userOperation } from '../operation.js';
import { formatScheduledMessage } from '../scheduled/fields.js';

/** GET /scheduled_messages: the caller's undelivered messages, earliest delivery first. */
export const getScheduledMessages = userOperation(type({}), async (ctx, { realm, user: caller }: Actor) => {
  const found = await ctx.storage.read(async (tx) => {
    const user = await tx.users.byId(realm.id, caller.id);
    return user?.isActive ? await tx.scheduledMessages.list(realm.id, user.id) : undefined;
  });
  if (!found) return err(unauthorized('Account is deactivated'));
  return ok({ scheduled_messages: found.map(formatScheduledMessage) });
});
