import type { BotStorageStore } from '../bot-storage-types.js';
import type { TableMap } from './columns.js';
import type { Statements } from './statements.js';

const ENTRY: TableMap<{ key: string; value: string }> = { table: 'bot_storage', booleans: [] };
const SIZE: TableMap<{ size: number }> = { table: 'bot_storage', booleans: [] };

/** The bot storage store over a connection's statements. */
export function botStorageStore(q: Statements): BotStorageStore {
  return {
    async entries(realmId, userId, keys) {
      const rows = keys
        ? (await Promise.all(keys.map((key) => q.all(ENTRY, 'SELECT key, value FROM bot_storage WHERE realm_id = ? AND user_id = ? AND key = ?', realmId, userId, key)))).flat()
        : await q.all(ENTRY, 'SELECT key, value FROM bot_storage WHERE realm_id = ? AND user_id = ? ORDER BY key', realmId, userId);
      const unique = new Map(rows.map((r) => [r.key, r.value]));
      return [...unique].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    },
    async size(realmId, userId) {
      return (await q.get(SIZE, 'SELECT coalesce(sum(length(key) + length(value)), 0) AS size FROM bot_storage WHERE realm_id = ? AND user_id = ?', realmId, userId))!.size;
    },
    async put(realmId, userId, entries) {
      for (const [key, value] of entries) {
        await q.run(
          'INSERT INTO bot_storage (realm_id, user_id, key, value) VALUES (?, ?, ?, ?) ON CONFLICT (user_id, key) DO UPDATE SET value = excluded.value',
          realmId,
          userId,
          key,
          value,
        );
      }
    },
    async remove(realmId, userId, keys) {
      if (!keys) return (await q.run('DELETE FROM bot_storage WHERE realm_id = ? AND user_id = ?', realmId, userId)).changes;
      let removed = 0;
      for (const key of new Set(keys)) removed += (await q.run('DELETE FROM bot_storage WHERE realm_id = ? AND user_id = ? AND key = ?', realmId, userId, key)).changes;
      return removed;
    },
  };
}
