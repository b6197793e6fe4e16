import { ok } from 'neverthrow';
import { formatLinkifier } from '../format/linkifier.js';
import { userOperation } from '../operation.js';
import { GetLinkifiersParams } from '../schemas/linkifiers.js';

/** GET /realm/linkifiers: the realm's linkifiers in processing order; any user may read them. */
export const getLinkifiers = userOperation(GetLinkifiersParams, async (ctx, actor) =>
  ok({ linkifiers: (await ctx.storage.read((tx) => tx.linkifiers.list(actor.realm.id))).map(formatLinkifier) }),
);

/**
 * GET /realm/filters, the reference's legacy listing that the Python bindings' get_realm_filters
 * still call: `[pattern, url_template, id]` triples in processing order.
 */
export const getLegacyLinkifiers = userOperation(GetLinkifiersParams, async (ctx, actor) =>
  ok({ filters: (await ctx.storage.read((tx) => tx.linkifiers.list(actor.realm.id))).map((l) => [l.pattern, l.urlTemplate, l.id] as const) }),
);
