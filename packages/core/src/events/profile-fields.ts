import type { Ctx } from '../context.js';
import { formatProfileField } from '../format/profile-field.js';
import type { Realm, Tx } from '../storage/types.js';
import { activeUserIds, publishOnCommit } from './publish.js';

/**
 * `custom_profile_fields` with every field of the realm as stored after the change (read in
 * the transaction), to every active user (SHAPES.md 4.12). Sent on create, update, delete and
 * reorder: the event has no op, clients replace their list.
 */
export async function announceProfileFields(ctx: Ctx, tx: Tx, realm: Realm): Promise<void> {
  const fields = (await tx.customProfileFields.list(realm.id)).map(formatProfileField);
  publishOnCommit(ctx, tx, {
    realmId: realm.id,
    userIds: await activeUserIds(tx, realm.id),
    event: { type: 'custom_profile_fields', fields },
  });
}
