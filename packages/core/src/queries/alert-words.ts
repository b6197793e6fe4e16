import { ok } from 'neverthrow';
import { type } from '../schemas/known-structs.js';
import { type Actor, userOperation } from '../operation.js';

/** GET /users/me/alert_words: the user's words, in the order they were added. */
export const getAlertWords = userOperation(type({}), async (ctx, actor: Actor) =>
  ok({ alert_words: await ctx.storage.read((tx) => tx.alertWords.list(actor.realm.id, actor.user.id)) }),
);
