import type { ClientDevice, PushDeviceToken, PushStore } from '../push-types.js';
import { type TableMap, toRow } from './columns.js';
import type { Statements } from './statements.js';

const TOKEN: TableMap<PushDeviceToken> = { table: 'push_device_token', booleans: [] };
const DEVICE: TableMap<ClientDevice> = { table: 'client_device', booleans: [] };
const DEVICE_COLUMNS = `id, user_id, push_key, push_key_id, push_token_kind, push_token_id, pending_push_token_id,
  push_token_last_updated_timestamp, push_registration_error_code`;
const PATCHABLE = [
  'pushKey', 'pushKeyId', 'pushTokenKind', 'pushTokenId', 'pendingPushTokenId', 'pushTokenLastUpdatedTimestamp', 'pushRegistrationErrorCode',
] as const satisfies readonly (keyof ClientDevice)[];
const DEVICE_BY_ID = `SELECT ${DEVICE_COLUMNS} FROM client_device WHERE realm_id = ? AND user_id = ? AND id = ?`;
const NOTIFIED: TableMap<{ userId: number; messageId: number }> = { table: 'push_notified', booleans: [] };

/** The push store over a connection's statements. */
export function pushStore(q: Statements): PushStore {
  return {
    async tokensOf(realmId, userIds) {
      return await q.all(
        TOKEN,
        `SELECT user_id, kind, token, ios_app_id, date_created FROM push_device_token
         WHERE realm_id = ? AND user_id IN (SELECT value FROM json_each(?)) ORDER BY id`,
        realmId,
        JSON.stringify(userIds),
      );
    },
    async addToken(realmId, t) {
      // Selecting the user from its realm writes nothing for a user of another realm.
      const result = await q.run(
        `INSERT INTO push_device_token (realm_id, user_id, kind, token, ios_app_id, date_created)
         SELECT ?, id, ?, ?, ?, ? FROM user WHERE realm_id = ? AND id = ?
         ON CONFLICT (user_id, kind, token) DO NOTHING`,
        realmId,
        t.kind,
        t.token,
        t.iosAppId,
        t.dateCreated,
        realmId,
        t.userId,
      );
      return result.changes === 1;
    },
    async removeToken(realmId, userId, kind, token) {
      const sql = 'DELETE FROM push_device_token WHERE realm_id = ? AND user_id = ? AND kind = ? AND token = ?';
      return (await q.run(sql, realmId, userId, kind, token)).changes === 1;
    },
    async removeTokens(realmId, userId) {
      return (await q.run('DELETE FROM push_device_token WHERE realm_id = ? AND user_id = ?', realmId, userId)).changes;
    },
    async markNotified(realmId, userId, messageIds) {
      // Only the user's own unread copies of the realm's messages are recorded.
      const candidates = await q.all(
        NOTIFIED,
        `SELECT um.user_id, um.message_id FROM user_message um JOIN message m ON m.id = um.message_id
         WHERE um.user_id = ? AND m.realm_id = ? AND (um.flags & 1) = 0 AND um.message_id IN (SELECT value FROM json_each(?))
           AND NOT EXISTS (SELECT 1 FROM push_notified p WHERE p.user_id = um.user_id AND p.message_id = um.message_id)
         ORDER BY um.message_id`,
        userId,
        realmId,
        JSON.stringify(messageIds),
      );
      for (const row of candidates) await q.run('INSERT INTO push_notified (realm_id, user_id, message_id) VALUES (?, ?, ?)', realmId, userId, row.messageId);
      return candidates.map((row) => row.messageId);
    },
    async clearNotified(realmId, userIds, messageIds) {
      const where = `realm_id = ? AND user_id IN (SELECT value FROM json_each(?)) AND message_id IN (SELECT value FROM json_each(?))`;
      const params = [realmId, JSON.stringify(userIds), JSON.stringify(messageIds)];
      const rows = await q.all(NOTIFIED, `SELECT user_id, message_id FROM push_notified WHERE ${where} ORDER BY user_id, message_id`, ...params);
      await q.run(`DELETE FROM push_notified WHERE ${where}`, ...params);
      const cleared = new Map<number, number[]>();
      for (const row of rows) cleared.set(row.userId, [...(cleared.get(row.userId) ?? []), row.messageId]);
      return cleared;
    },
    async insertDevice(realmId, userId) {
      const result = await q.run('INSERT INTO client_device (realm_id, user_id) SELECT ?, id FROM user WHERE realm_id = ? AND id = ?', realmId, realmId, userId);
      return result.changes === 1 ? await q.get(DEVICE, DEVICE_BY_ID, realmId, userId, Number(result.lastInsertRowid)) : undefined;
    },
    async devicesOf(realmId, userIds) {
      const sql = `SELECT ${DEVICE_COLUMNS} FROM client_device WHERE realm_id = ? AND user_id IN (SELECT value FROM json_each(?)) ORDER BY id`;
      return await q.all(DEVICE, sql, realmId, JSON.stringify(userIds));
    },
    async device(realmId, userId, id) {
      return await q.get(DEVICE, DEVICE_BY_ID, realmId, userId, id);
    },
    async updateDevice(realmId, userId, id, patch) {
      // Only the patchable fields become columns, whatever keys a JavaScript caller passes.
      const row = toRow(Object.fromEntries(PATCHABLE.map((field) => [field, patch[field]])));
      const columns = Object.keys(row);
      if (columns.length > 0) {
        await q.run(
          `UPDATE client_device SET ${columns.map((c) => `${c} = ?`).join(', ')} WHERE realm_id = ? AND user_id = ? AND id = ?`,
          ...Object.values(row),
          realmId,
          userId,
          id,
        );
      }
      return await q.get(DEVICE, DEVICE_BY_ID, realmId, userId, id);
    },
    async deleteDevice(realmId, userId, id) {
      return (await q.run('DELETE FROM client_device WHERE realm_id = ? AND user_id = ? AND id = ?', realmId, userId, id)).changes === 1;
    },
  };
}
