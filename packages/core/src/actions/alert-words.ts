import { ok } from 'neverthrow';
import type { Ctx } from '../context.js';
import { publishOnCommit } from '../events/publish.js';
import { type Actor, userOperation } from '../operation.js';
import { AddAlertWordsParams, RemoveAlertWordsParams } from '../schemas/alert-words.js';
import type { Tx, User } from '../storage/types.js';
import { transactionAs } from '../transaction.js';

/** Words as the reference keeps them: stripped, blanks dropped. */
const cleanWords = (words: readonly string[]) => words.map((w) => w.trim()).filter((w) => w !== '');

/**
 * POST /users/me/alert_words: adds words the user does not have yet (ignoring case; a word
 * already present keeps its spelling) and answers the whole list. The `alert_words` event goes
 * to the user's own queues even when nothing changed, as in the reference.
 */
export const doAddAlertWords = userOperation(AddAlertWordsParams, async (ctx, requester: Actor, params) =>
  transactionAs(ctx, requester, async (tx, { user }) => {
    // Within one request the last spelling of a word wins, as the reference's dict of new words does.
    const byKey = new Map<string, string>();
    for (const word of cleanWords(params.alert_words)) byKey.set(word.toLowerCase(), word);
    await tx.alertWords.add(user.realmId, user.id, [...byKey.values()]);
    return ok({ alert_words: await announceAlertWords(ctx, tx, user) });
  }),
);

/** DELETE /users/me/alert_words: removes the words (ignoring case) and answers the remaining list. */
export const doRemoveAlertWords = userOperation(RemoveAlertWordsParams, async (ctx, requester: Actor, params) =>
  transactionAs(ctx, requester, async (tx, { user }) => {
    await tx.alertWords.remove(user.realmId, user.id, cleanWords(params.alert_words));
    return ok({ alert_words: await announceAlertWords(ctx, tx, user) });
  }),
);

/** The user's list after a change, sent to their own queues (SHAPES.md 4.20) after commit. */
async function announceAlertWords(ctx: Ctx, tx: Tx, user: User): Promise<string[]> {
  const words = await tx.alertWords.list(user.realmId, user.id);
  publishOnCommit(ctx, tx, { realmId: user.realmId, userIds: [user.id], event: { type: 'alert_words', alert_words: words } });
  return words;
}
