import type { NavigationView, NavigationViewStore } from '../navigation-view-types.js';
import type { TableMap } from './columns.js';
import type { Statements } from './statements.js';

const VIEW: TableMap<NavigationView> = { table: 'navigation_view', booleans: ['isPinned'] };
const COLUMNS = 'fragment, is_pinned, name';

/** The navigation-view store over a connection's statements. */
export function navigationViewStore(q: Statements): NavigationViewStore {
  return {
    async list(realmId, userId) {
      return await q.all(VIEW, `SELECT ${COLUMNS} FROM navigation_view WHERE realm_id = ? AND user_id = ? ORDER BY id`, realmId, userId);
    },
    async byFragment(realmId, userId, fragment) {
      return await q.get(VIEW, `SELECT ${COLUMNS} FROM navigation_view WHERE realm_id = ? AND user_id = ? AND fragment = ?`, realmId, userId, fragment);
    },
    async insert(realmId, userId, view) {
      // OR IGNORE: a taken fragment or name (the unique indexes) writes nothing; so does a user of another realm.
      const result = await q.run(
        'INSERT OR IGNORE INTO navigation_view (realm_id, user_id, fragment, is_pinned, name) SELECT ?, id, ?, ?, ? FROM user WHERE realm_id = ? AND id = ?',
        realmId,
        view.fragment,
        Number(view.isPinned),
        view.name,
        realmId,
        userId,
      );
      return result.changes === 1;
    },
    async update(realmId, userId, fragment, patch) {
      const result = await q.run(
        'UPDATE OR IGNORE navigation_view SET is_pinned = COALESCE(?, is_pinned), name = COALESCE(?, name) WHERE realm_id = ? AND user_id = ? AND fragment = ?',
        patch.isPinned === undefined ? null : Number(patch.isPinned),
        patch.name ?? null,
        realmId,
        userId,
        fragment,
      );
      return result.changes === 1;
    },
    async remove(realmId, userId, fragment) {
      return (await q.run('DELETE FROM navigation_view WHERE realm_id = ? AND user_id = ? AND fragment = ?', realmId, userId, fragment)).changes === 1;
    },
  };
}
