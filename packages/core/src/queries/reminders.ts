import { err, ok } from 'neverthrow';
import { type } from '../schemas/known-structs.js';
import { unauthorized } from '../errors.js';
import { type Actor, userOperation } from '../operation.js';
import { formatReminder } from '../scheduled/reminder-fields.js';

/** GET /reminders: the caller's undelivered reminders, earliest delivery first. */
export const getReminders = userOperation(type({}), async (ctx, { realm, user: caller }: Actor) => {
  const found = await ctx.storage.read(async (tx) => {
    const user = await tx.users.byId(realm.id, caller.id);
    return user?.isActive ? await tx.scheduledMessages.list(realm.id, user.id, 'remind') : undefined;
  });
  if (!found) return err(unauthorized('Account is deactivated'));
  return ok({ reminders: found.map(formatReminder) });
});
