import type { Ctx } from '../context.js';
import { activeUserIds, publishOnCommit } from '../events/publish.js';
import { defineEventRule } from '../events/rules.js';
import { formatLinkifier } from '../format/linkifier.js';
import type { Realm, Tx } from '../storage/types.js';

// Only clients that expand url_template themselves take the event (SHAPES.md 4.11); the legacy
// `realm_filters` event is never sent.
defineEventRule('realm_linkifiers', { accepts: (queue) => queue.options.capabilities.has('linkifier_url_template') });

/**
 * The `realm_linkifiers` event after a change: the realm's whole list in processing order, as
 * stored after the change (read inside the transaction), to every active user of the realm.
 */
export async function announceLinkifiers(ctx: Ctx, tx: Tx, realm: Realm): Promise<void> {
  const linkifiers = (await tx.linkifiers.list(realm.id)).map(formatLinkifier);
  publishOnCommit(ctx, tx, {
    realmId: realm.id,
    userIds: await activeUserIds(tx, realm.id),
    event: { type: 'realm_linkifiers', realm_linkifiers: linkifiers },
  });
}
