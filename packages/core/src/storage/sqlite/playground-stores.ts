import type { PlaygroundStore, StoredPlayground } from '../playground-types.js';
import type { TableMap } from './columns.js';
import type { Statements } from './statements.js';

const PLAYGROUND: TableMap<StoredPlayground> = { table: 'realm_playground', booleans: [] };
const COLUMNS = 'id, realm_id, name, pygments_language, url_template';

/** The code playground store over a connection's statements. */
export function playgroundStore(q: Statements): PlaygroundStore {
  return {
    async list(realmId) {
      return await q.all(PLAYGROUND, `SELECT ${COLUMNS} FROM realm_playground WHERE realm_id = ? ORDER BY id`, realmId);
    },
    async insert(realmId, playground) {
      const { lastInsertRowid } = await q.run(
        'INSERT INTO realm_playground (realm_id, name, pygments_language, url_template) VALUES (?, ?, ?, ?)',
        realmId,
        playground.name,
        playground.pygmentsLanguage,
        playground.urlTemplate,
      );
      return { id: Number(lastInsertRowid), realmId, ...playground };
    },
    async delete(realmId, id) {
      return (await q.run('DELETE FROM realm_playground WHERE realm_id = ? AND id = ?', realmId, id)).changes > 0;
    },
  };
}
