import type { Ctx } from '../context.js';
import { activeUserIds, publishOnCommit } from '../events/publish.js';
import type { DistributiveOmit } from '../events/types.js';
import type { UserGroupEvent } from '../events/union/users.js';
import type { Realm, Tx } from '../storage/types.js';

/**
 * Publishes a `user_group` event (SHAPES.md 4.24) after commit to every active user of the
 * realm: groups and their members are visible to everyone in it, guests included.
 * `capable` limits it to clients with (true) or without (false) include_deactivated_groups:
 * the capable learn of a deactivation as update {deactivated: true} (and of a reactivation as
 * update {deactivated: false}); the others as remove (and add).
 */
export async function announceUserGroup(ctx: Ctx, tx: Tx, realm: Realm, body: DistributiveOmit<UserGroupEvent, 'type'>, capable?: boolean): Promise<void> {
  const event = { type: 'user_group', ...body } as UserGroupEvent;
  const tailoring = capable === undefined ? {} : { tailoring: { onlyIf: { capability: 'include_deactivated_groups', declared: capable } as const } };
  publishOnCommit(ctx, tx, { realmId: realm.id, userIds: await activeUserIds(tx, realm.id), event, ...tailoring });
}
