import type { Ctx } from '../context.js';
import { activeUserIds, publishOnCommit } from '../events/publish.js';
import type { ApiEvent } from '../events/types.js';
import type { Realm, Tx } from '../storage/types.js';

/**
 * Publishes a `user_group` event (SHAPES.md 4.24) after commit to every active user of the
 * realm: groups and their members are visible to everyone in it, guests included.
 */
export async function announceUserGroup(ctx: Ctx, tx: Tx, realm: Realm, event: Omit<ApiEvent, 'type'>): Promise<void> {
  publishOnCommit(ctx, tx, { realmId: realm.id, userIds: await activeUserIds(tx, realm.id), event: { type: 'user_group', ...event } });
}
