import type { MutedUser, MutedUserStore } from '../muted-user-types.js';
import type { TableMap } from './columns.js';
import type { Statements } from './statements.js';

const ROW: TableMap<MutedUser> = { table: 'muted_user', booleans: [] };
const ID: TableMap<{ userId: number }> = { table: 'muted_user', booleans: [] };

/** The muted-users store over a connection's statements. */
export function mutedUserStore(q: Statements): MutedUserStore {
  return {
    async list(realmId, userId) {
      return await q.all(ROW, 'SELECT muted_user_id, date_muted FROM muted_user WHERE realm_id = ? AND user_id = ? ORDER BY id', realmId, userId);
    },
    async mutersOf(realmId, mutedUserId, among) {
      if (among === undefined) {
        return (await q.all(ID, 'SELECT user_id FROM muted_user WHERE realm_id = ? AND muted_user_id = ? ORDER BY user_id', realmId, mutedUserId)).map((r) => r.userId);
      }
      if (among.length === 0) return [];
      return (await q.all(
          ID,
          `SELECT user_id FROM muted_user WHERE realm_id = ? AND muted_user_id = ?
             AND user_id IN (SELECT value FROM json_each(?)) ORDER BY user_id`,
          realmId, mutedUserId, JSON.stringify(among),
        ))
        .map((r) => r.userId);
    },
    async add(realmId, userId, mutedUserId, dateMuted) {
      if (userId === mutedUserId) return false;
      // Inserted only when both users belong to the realm; the unique pair makes a repeat a no-op.
      const { changes } = await q.run(
        `INSERT INTO muted_user (realm_id, user_id, muted_user_id, date_muted)
         SELECT ?, a.id, b.id, ? FROM user a JOIN user b ON b.realm_id = a.realm_id
         WHERE a.realm_id = ? AND a.id = ? AND b.id = ? ON CONFLICT (user_id, muted_user_id) DO NOTHING`,
        realmId, dateMuted, realmId, userId, mutedUserId,
      );
      return changes > 0;
    },
    async remove(realmId, userId, mutedUserId) {
      const { changes } = await q.run('DELETE FROM muted_user WHERE realm_id = ? AND user_id = ? AND muted_user_id = ?', realmId, userId, mutedUserId);
      return changes > 0;
    },
  };
}
