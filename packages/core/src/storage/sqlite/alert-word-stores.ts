import type { AlertWordStore } from '../alert-word-types.js';
import type { TableMap } from './columns.js';
import type { Statements } from './statements.js';

const WORD: TableMap<{ userId: number; word: string }> = { table: 'alert_word', booleans: [] };
const NEXT: TableMap<{ next: number }> = { table: 'alert_word', booleans: [] };

/** The folded form the unique key compares. */
const wordKey = (word: string) => word.toLowerCase();

/** The alert-word store over a connection's statements. */
export function alertWordStore(q: Statements): AlertWordStore {
  return {
    async list(realmId, userId) {
      return (await q.all(WORD, 'SELECT user_id, word FROM alert_word WHERE realm_id = ? AND user_id = ? ORDER BY id', realmId, userId))
        .map((row) => row.word);
    },
    async forUsers(realmId, userIds) {
      const words = new Map<number, string[]>();
      if (userIds.length === 0) return words;
      const rows = await q.all(
        WORD,
        'SELECT user_id, word FROM alert_word WHERE realm_id = ? AND user_id IN (SELECT value FROM json_each(?)) ORDER BY user_id, id',
        realmId,
        JSON.stringify(userIds),
      );
      for (const { userId, word } of rows) words.set(userId, [...(words.get(userId) ?? []), word]);
      return words;
    },
    async add(realmId, userId, words) {
      for (const word of words) {
        const { next } = (await q.get(NEXT, 'SELECT COALESCE(MAX(id), 0) + 1 AS next FROM alert_word WHERE user_id = ?', userId))!;
        await q.run(
          'INSERT OR IGNORE INTO alert_word (realm_id, user_id, word, word_key, id) SELECT ?, id, ?, ?, ? FROM user WHERE realm_id = ? AND id = ?',
          realmId,
          word,
          wordKey(word),
          next,
          realmId,
          userId,
        );
      }
    },
    async remove(realmId, userId, words) {
      for (const word of words) {
        await q.run('DELETE FROM alert_word WHERE realm_id = ? AND user_id = ? AND word_key = ?', realmId, userId, wordKey(word));
      }
    },
  };
}
