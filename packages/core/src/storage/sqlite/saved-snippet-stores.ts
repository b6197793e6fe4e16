import type { SavedSnippet, SavedSnippetStore } from '../saved-snippet-types.js';
import type { TableMap } from './columns.js';
import type { Statements } from './statements.js';
import { nextId } from './kept-ids.js';

const SNIPPET: TableMap<SavedSnippet> = { table: 'saved_snippet', booleans: [] };
const COLUMNS = 'id, title, content, date_created';
const BY_ID = `SELECT ${COLUMNS} FROM saved_snippet WHERE realm_id = ? AND user_id = ? AND id = ?`;

/** The saved-snippet store over a connection's statements. */
export function savedSnippetStore(q: Statements): SavedSnippetStore {
  return {
    async list(realmId, userId) {
      return await q.all(SNIPPET, `SELECT ${COLUMNS} FROM saved_snippet WHERE realm_id = ? AND user_id = ? ORDER BY id`, realmId, userId);
    },
    async insert(realmId, userId, snippet) {
      // Selecting the user from its realm writes nothing for a user of another realm.
      const result = await q.run(
        'INSERT INTO saved_snippet (id, realm_id, user_id, title, content, date_created) SELECT ?, ?, id, ?, ?, ? FROM user WHERE realm_id = ? AND id = ?',
        await nextId(q, 'saved_snippet'),
        realmId,
        snippet.title,
        snippet.content,
        snippet.dateCreated,
        realmId,
        userId,
      );
      return result.changes === 1 ? { ...snippet, id: Number(result.lastInsertRowid) } : undefined;
    },
    async update(realmId, userId, id, patch) {
      await q.run(
        'UPDATE saved_snippet SET title = COALESCE(?, title), content = COALESCE(?, content) WHERE realm_id = ? AND user_id = ? AND id = ?',
        patch.title ?? null,
        patch.content ?? null,
        realmId,
        userId,
        id,
      );
      return await q.get(SNIPPET, BY_ID, realmId, userId, id);
    },
    async delete(realmId, userId, id) {
      return (await q.run('DELETE FROM saved_snippet WHERE realm_id = ? AND user_id = ? AND id = ?', realmId, userId, id)).changes === 1;
    },
  };
}
