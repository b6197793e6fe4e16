import type { PresenceStore, UserPresence } from '../presence-types.js';
import type { TableMap } from './columns.js';
import type { Statements } from './statements.js';

const PRESENCE: TableMap<UserPresence> = { table: 'user_presence', booleans: [] };
const COLUMNS = 'user_id, last_active_time, last_connected_time, last_update_id';
const SEQUENCE: TableMap<{ lastUpdateId: number }> = { table: 'presence_sequence', booleans: [] };

// The SELECT from user keeps a row of another realm (or of no user) out.
const UPSERT = `
  INSERT INTO user_presence (user_id, realm_id, last_active_time, last_connected_time, last_update_id)
  SELECT id, realm_id, ?, ?, ? FROM user WHERE id = ? AND realm_id = ?
  ON CONFLICT (user_id) DO UPDATE SET
    last_active_time = excluded.last_active_time,
    last_connected_time = excluded.last_connected_time,
    last_update_id = excluded.last_update_id`;

const RAISE_SEQUENCE = `
  INSERT INTO presence_sequence (realm_id, last_update_id) SELECT id, ? FROM realm WHERE id = ?
  ON CONFLICT (realm_id) DO UPDATE SET last_update_id = max(last_update_id, excluded.last_update_id)`;

/** The presence store over a connection's statements. */
export function presenceStore(q: Statements): PresenceStore {
  return {
    async list(realmId) {
      return await q.all(
        PRESENCE,
        `SELECT ${COLUMNS} FROM user_presence WHERE realm_id = ? ORDER BY user_id`,
        realmId,
      );
    },
    async listUsers(realmId, userIds) {
      if (userIds.length === 0) return [];
      return await q.all(
        PRESENCE,
        `SELECT ${COLUMNS} FROM user_presence WHERE realm_id = ? AND user_id IN (SELECT value FROM json_each(?)) ORDER BY user_id`,
        realmId,
        JSON.stringify(userIds),
      );
    },
    async listChanged(realmId, afterUpdateId) {
      return await q.all(PRESENCE, `SELECT ${COLUMNS} FROM user_presence WHERE realm_id = ? AND last_update_id > ? ORDER BY user_id`, realmId, afterUpdateId);
    },
    async lastUpdateId(realmId) {
      return (await q.get(SEQUENCE, 'SELECT last_update_id FROM presence_sequence WHERE realm_id = ?', realmId))?.lastUpdateId ?? 0;
    },
    async save(realmId, rows, lastUpdateId) {
      for (const row of rows) await q.run(UPSERT, row.lastActiveTime, row.lastConnectedTime, row.lastUpdateId, row.userId, realmId);
      await q.run(RAISE_SEQUENCE, lastUpdateId, realmId);
    },
  };
}
