/**
 * Who may send a direct message (the reference's direct_message_permission_group and
 * direct_message_initiator_group): some participant must be in the permission group, and a
 * conversation that has no messages yet may only be started by the initiator group. A message
 * to oneself alone is always allowed.
 */
import { err, ok, type Result } from 'neverthrow';
import { type ApiError, badRequest } from '../errors.js';
import { dmKeyOf } from '../messages/normalize.js';
import { realmGroupSetting } from '../settings/realm-settings.js';
import type { Realm, Tx, User } from '../storage/types.js';
import { withUserGroupIds } from './group-membership.js';
import { hasRealmPermission } from './realm-rules.js';

/** Checks `sender` may send to `participants` (the sender included). */
export async function checkDirectMessagePermission(tx: Tx, realm: Realm, sender: User, participants: readonly User[]): Promise<Result<void, ApiError>> {
  if (participants.every((u) => u.id === sender.id)) return ok(undefined);
  const members = await withUserGroupIds(tx, realm.id, participants);
  if (!members.some((u) => hasRealmPermission(u, realm, 'direct_message_permission_group'))) {
    const disabled = realmGroupSetting(realm, 'direct_message_permission_group') === 'role:nobody';
    return err(badRequest(disabled ? 'Direct messages are disabled in this organization.' : 'This conversation does not include any users who can authorize it.'));
  }
  if (!hasRealmPermission(sender, realm, 'direct_message_initiator_group')) {
    const started = (await tx.messages.dmConversationId(realm.id, dmKeyOf(participants.map((u) => u.id)))) !== 0;
    if (!started) return err(badRequest('You do not have permission to initiate direct message conversations.'));
  }
  return ok(undefined);
}
