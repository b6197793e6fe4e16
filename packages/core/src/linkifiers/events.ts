import type { Ctx } from '../context.js';
import { activeUserIds, publishOnCommit } from '../events/publish.js';
import { formatLinkifier } from '../format/linkifier.js';
import type { Realm, Tx } from '../storage/types.js';

/**
 * The `realm_linkifiers` event after a change: the realm's whole list in processing order, as
 * stored after the change (read inside the transaction), to every active user of the realm.
 * Only clients that expand url_template themselves take it (events/type-rules.ts).
 */
export async function announceLinkifiers(ctx: Ctx, tx: Tx, realm: Realm): Promise<void> {
  const linkifiers = (await tx.linkifiers.list(realm.id)).map(formatLinkifier);
  publishOnCommit(ctx, tx, {
    realmId: realm.id,
    userIds: await activeUserIds(tx, realm.id),
    event: { type: 'realm_linkifiers', realm_linkifiers: linkifiers },
  });
}
