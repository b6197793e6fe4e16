import type { Invitation, InvitationStore } from '../invitation-types.js';
import { type TableMap, toRow, updateSql } from './columns.js';
import type { Statements } from './statements.js';

const INVITATION: TableMap<Invitation> = {
  table: 'invitation',
  booleans: ['isMultiuse', 'includeRealmDefaultSubscriptions', 'notifyReferrerOnJoin'],
  json: ['streamIds', 'groupIds'],
};
const COLUMNS = `id, realm_id, referrer_id, email, is_multiuse, invite_as, stream_ids, group_ids, include_realm_default_subscriptions,
  notify_referrer_on_join, welcome_message_custom_text, invited_at, expires_at, key, status`;

/** The invitation store over a connection's statements. */
export function invitationStore(q: Statements): InvitationStore {
  const get = async (realmId: number, id: number) =>
    await q.get(INVITATION, `SELECT ${COLUMNS} FROM invitation WHERE realm_id = ? AND id = ?`, realmId, id);
  return {
    async insert(realmId, f) {
      // Through the referrer's row, so a user of another realm gets nothing written.
      const { changes, lastInsertRowid } = await q.run(
        `INSERT INTO invitation (realm_id, referrer_id, email, is_multiuse, invite_as, stream_ids, group_ids,
           include_realm_default_subscriptions, notify_referrer_on_join, welcome_message_custom_text, invited_at, expires_at, key)
         SELECT realm_id, id, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ? FROM user WHERE realm_id = ? AND id = ?`,
        f.email,
        f.email === null ? 1 : 0,
        f.inviteAs,
        JSON.stringify(f.streamIds),
        JSON.stringify(f.groupIds),
        f.includeRealmDefaultSubscriptions ? 1 : 0,
        f.notifyReferrerOnJoin ? 1 : 0,
        f.welcomeMessageCustomText,
        f.invitedAt,
        f.expiresAt,
        f.key,
        realmId,
        f.referrerId,
      );
      return changes === 1 ? get(realmId, Number(lastInsertRowid)) : undefined;
    },
    get: async (realmId, id) => get(realmId, id),
    async byKey(realmId, key) {
      return await q.get(INVITATION, `SELECT ${COLUMNS} FROM invitation WHERE realm_id = ? AND key = ?`, realmId, key);
    },
    async listPending(realmId, nowSeconds) {
      return await q.all(
        INVITATION,
        `SELECT ${COLUMNS} FROM invitation WHERE realm_id = ? AND status = 'pending' AND (expires_at IS NULL OR expires_at > ?) ORDER BY id`,
        realmId,
        nowSeconds,
      );
    },
    async updatePending(realmId, id, patch) {
      const row = toRow(patch);
      if (Object.keys(row).length === 0) return (await get(realmId, id))?.status === 'pending';
      const sql = updateSql('invitation', row, `realm_id = @where_realm AND id = @where_id AND status = 'pending'`);
      // expires_at may be set to null, which toRow keeps (only undefined is dropped).
      return (await q.run(sql, { ...row, where_realm: realmId, where_id: id })).changes === 1;
    },
  };
}
