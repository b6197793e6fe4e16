import type { UserStatus, UserStatusStore } from '../user-status-types.js';
import type { TableMap } from './columns.js';
import type { Statements } from './statements.js';

const ROW: TableMap<UserStatus> = { table: 'user_status', booleans: [] };
const COLUMNS = 'user_id, status_text, emoji_name, emoji_code, reaction_type, timestamp';

/** The user-status store over a connection's statements. */
export function userStatusStore(q: Statements): UserStatusStore {
  const get = async (realmId: number, userId: number) =>
    await q.get(ROW, `SELECT ${COLUMNS} FROM user_status WHERE realm_id = ? AND user_id = ?`, realmId, userId);
  return {
    async list(realmId) {
      return await q.all(ROW, `SELECT ${COLUMNS} FROM user_status WHERE realm_id = ? ORDER BY user_id`, realmId);
    },
    async get(realmId, userId) {
      return get(realmId, userId);
    },
    async set(realmId, userId, change, timestamp) {
      // A new row starts empty; only the user of the realm gets one.
      await q.run(
        `INSERT INTO user_status (user_id, realm_id, timestamp)
         SELECT id, realm_id, ? FROM user WHERE realm_id = ? AND id = ? ON CONFLICT (user_id) DO NOTHING`,
        timestamp, realmId, userId,
      );
      // COALESCE keeps the fields the change leaves out.
      await q.run(
        `UPDATE user_status SET status_text = COALESCE(?, status_text), emoji_name = COALESCE(?, emoji_name),
           emoji_code = COALESCE(?, emoji_code), reaction_type = COALESCE(?, reaction_type), timestamp = ?
         WHERE realm_id = ? AND user_id = ?`,
        change.statusText ?? null, change.emojiName ?? null, change.emojiCode ?? null, change.reactionType ?? null, timestamp,
        realmId, userId,
      );
      return get(realmId, userId);
    },
  };
}
