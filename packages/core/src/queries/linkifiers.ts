import { ok } from 'neverthrow';
import { formatLinkifier } from '../format/linkifier.js';
import { userOperation } from '../operation.js';
import { GetLinkifiersParams } from '../schemas/linkifiers.js';

/** GET /realm/linkifiers: the realm's linkifiers in processing order; any user may read them. */
export const getLinkifiers = userOperation(GetLinkifiersParams, async (ctx, actor) =>
  ok({ linkifiers: (await ctx.storage.read((tx) => tx.linkifiers.list(actor.realm.id))).map(formatLinkifier) }),
);
