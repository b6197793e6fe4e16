/**
 * /bot_storage (the reference's views/storage.py and lib/bot_storage.py): a user's string
 * key-value store, which bots (the Python bindings' StateHandler) keep their state in. Every
 * authenticated user has one, as in the reference; its size is bounded by botStorageSizeLimit.
 */
import { err, ok } from 'neverthrow';
import { badRequest } from '../errors.js';
import { codePointCount } from '../text/length.js';
import { type Actor, userOperation } from '../operation.js';
import { BotStorageKeysParams, PutBotStorageParams } from '../schemas/bot-storage.js';
import { transactionAs } from '../transaction.js';

const KEY_DOES_NOT_EXIST = 'Key does not exist.';

/** PUT /bot_storage: sets the keys, refusing a change that would take the store past its limit. */
export const doPutBotStorage = userOperation(PutBotStorageParams, async (ctx, requester: Actor, params) => {
  const entries = Object.entries(params.storage);
  const limit = ctx.config.botStorageSizeLimit;
  const requested = entries.reduce((sum, [key, value]) => sum + codePointCount(key) + codePointCount(value), 0);
  return transactionAs(ctx, requester, async (tx, { realm, user }) => {
    const replaced = await tx.botStorage.entries(realm.id, user.id, entries.map(([key]) => key));
    const freed = replaced.reduce((sum, [key, value]) => sum + codePointCount(key) + codePointCount(value), 0);
    const size = (await tx.botStorage.size(realm.id, user.id)) - freed + requested;
    if (size > limit) {
      return err(badRequest(`Request exceeds storage limit by ${size - limit} characters. The limit is ${limit} characters.`));
    }
    await tx.botStorage.put(realm.id, user.id, entries);
    return ok({});
  });
});

/** GET /bot_storage: the requested keys (every key when none are named); a missing key is an error. */
export const getBotStorage = userOperation(BotStorageKeysParams, async (ctx, actor: Actor, params) => {
  const keys = params.keys?.length ? params.keys : undefined;
  const entries = await ctx.storage.read((tx) => tx.botStorage.entries(actor.realm.id, actor.user.id, keys));
  if (keys && entries.length < new Set(keys).size) return err(badRequest(KEY_DOES_NOT_EXIST));
  return ok({ storage: Object.fromEntries(entries) });
});

/** DELETE /bot_storage: removes the keys (every key when none are named); nothing is removed if one is missing. */
export const doRemoveBotStorage = userOperation(BotStorageKeysParams, async (ctx, requester: Actor, params) =>
  transactionAs(ctx, requester, async (tx, { realm, user }) => {
    const keys = params.keys?.length ? params.keys : undefined;
    if (keys && (await tx.botStorage.entries(realm.id, user.id, keys)).length < new Set(keys).size) return err(badRequest(KEY_DOES_NOT_EXIST));
    await tx.botStorage.remove(realm.id, user.id, keys);
    return ok({});
  }),
);
