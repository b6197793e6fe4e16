import type { PushDeviceToken, PushStore } from '../push-types.js';
import type { TableMap } from './columns.js';
import type { Statements } from './statements.js';

const TOKEN: TableMap<PushDeviceToken> = { table: 'push_device_token', booleans: [] };
const NOTIFIED: TableMap<{ userId: number; messageId: number }> = { table: 'push_notified', booleans: [] };

/** The push store over a connection's statements. */
export function pushStore(q: Statements): PushStore {
  return {
    async tokensOf(realmId, userIds) {
      return q.all(
        TOKEN,
        `SELECT user_id, kind, token, ios_app_id, date_created FROM push_device_token
         WHERE realm_id = ? AND user_id IN (SELECT value FROM json_each(?)) ORDER BY id`,
        realmId,
        JSON.stringify(userIds),
      );
    },
    async addToken(realmId, t) {
      // Selecting the user from its realm writes nothing for a user of another realm.
      const result = q.run(
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
      return q.run(sql, realmId, userId, kind, token).changes === 1;
    },
    async markNotified(realmId, userId, messageIds) {
      // Only the user's own unread copies of the realm's messages are recorded.
      const candidates = q.all(
        NOTIFIED,
        `SELECT um.user_id, um.message_id FROM user_message um JOIN message m ON m.id = um.message_id
         WHERE um.user_id = ? AND m.realm_id = ? AND (um.flags & 1) = 0 AND um.message_id IN (SELECT value FROM json_each(?))
           AND NOT EXISTS (SELECT 1 FROM push_notified p WHERE p.user_id = um.user_id AND p.message_id = um.message_id)
         ORDER BY um.message_id`,
        userId,
        realmId,
        JSON.stringify(messageIds),
      );
      for (const row of candidates) q.run('INSERT INTO push_notified (realm_id, user_id, message_id) VALUES (?, ?, ?)', realmId, userId, row.messageId);
      return candidates.map((row) => row.messageId);
    },
    async clearNotified(realmId, userIds, messageIds) {
      const where = `realm_id = ? AND user_id IN (SELECT value FROM json_each(?)) AND message_id IN (SELECT value FROM json_each(?))`;
      const params = [realmId, JSON.stringify(userIds), JSON.stringify(messageIds)];
      const rows = q.all(NOTIFIED, `SELECT user_id, message_id FROM push_notified WHERE ${where} ORDER BY user_id, message_id`, ...params);
      q.run(`DELETE FROM push_notified WHERE ${where}`, ...params);
      const cleared = new Map<number, number[]>();
      for (const row of rows) cleared.set(row.userId, [...(cleared.get(row.userId) ?? []), row.messageId]);
      return cleared;
    },
  };
}
