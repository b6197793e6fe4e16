/** DELETE /bots/{bot_id} and POST /bots/{bot_id}/api_key/regenerate: a bot's activation and key. */
import { err, ok } from 'neverthrow';
import { accessBotById, checkMemberOrAdmin } from '../access/bots.js';
import { generateApiKey } from '../auth/api-key.js';
import { type Actor, userOperation } from '../operation.js';
import { BotIdParams } from '../schemas/bots.js';
import { transactionAs } from '../transaction.js';
import { applyUserChange } from '../users/changes.js';

/**
 * Deactivates a bot its owner or an administrator manages: everyone who may see it gets the
 * realm_user is_active update, its managers a realm_bot delete. A deactivated bot stays
 * deactivated (nothing is sent again), as in the reference.
 */
export const doDeactivateBot = userOperation(BotIdParams, async (ctx, requester: Actor, params) => {
  const member = checkMemberOrAdmin(requester.user);
  if (member.isErr()) return err(member.error);
  return transactionAs(ctx, requester, async (tx, actor) => {
    const bot = await accessBotById(tx, actor, params.bot_id);
    if (bot.isErr()) return err(bot.error);
    await applyUserChange(ctx, tx, actor.realm, bot.value, { isActive: false });
    return ok({});
  });
});

/**
 * Gives a bot a new API key; the old one stops working at once. Since FL 474 no event says so:
 * the key is no longer part of the bot record, and only this answer carries it.
 */
export const doRegenerateBotApiKey = userOperation(BotIdParams, async (ctx, requester: Actor, params) => {
  const member = checkMemberOrAdmin(requester.user);
  if (member.isErr()) return err(member.error);
  return transactionAs(ctx, requester, async (tx, actor) => {
    const bot = await accessBotById(tx, actor, params.bot_id);
    if (bot.isErr()) return err(bot.error);
    const apiKey = generateApiKey(ctx);
    await tx.users.update(actor.realm.id, bot.value.id, { apiKey });
    return ok({ api_key: apiKey });
  });
});
