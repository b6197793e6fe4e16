import type { LinkifierChange, LinkifierStore, StoredLinkifier } from '../linkifier-types.js';
import type { TableMap } from './columns.js';
import type { Statements } from './statements.js';
import { nextId } from './kept-ids.js';

const LINKIFIER: TableMap<StoredLinkifier> = { table: 'realm_linkifier', booleans: [], json: ['alternativeUrlTemplates'] };
const COLUMNS = 'id, realm_id, pattern, url_template, example_input, reverse_template, alternative_url_templates';

const values = (l: LinkifierChange) => [l.pattern, l.urlTemplate, l.exampleInput, l.reverseTemplate, JSON.stringify(l.alternativeUrlTemplates)];

/** The linkifier store over a connection's statements. */
export function linkifierStore(q: Statements): LinkifierStore {
  return {
    async list(realmId) {
      return await q.all(LINKIFIER, `SELECT ${COLUMNS} FROM realm_linkifier WHERE realm_id = ? ORDER BY sort_order, id`, realmId);
    },
    async insert(realmId, linkifier) {
      const { lastInsertRowid } = await q.run(
        `INSERT INTO realm_linkifier (id, realm_id, pattern, url_template, example_input, reverse_template, alternative_url_templates, sort_order)
         VALUES (?, ?, ?, ?, ?, ?, ?, (SELECT COALESCE(MAX(sort_order), -1) + 1 FROM realm_linkifier WHERE realm_id = ?))`,
        await nextId(q, 'realm_linkifier'),
        realmId,
        ...values(linkifier),
        realmId,
      );
      return { id: Number(lastInsertRowid), realmId, ...linkifier, alternativeUrlTemplates: [...linkifier.alternativeUrlTemplates] };
    },
    async update(realmId, id, linkifier) {
      const { changes } = await q.run(
        `UPDATE realm_linkifier SET pattern = ?, url_template = ?, example_input = ?, reverse_template = ?, alternative_url_templates = ?
         WHERE realm_id = ? AND id = ?`,
        ...values(linkifier),
        realmId,
        id,
      );
      return changes > 0;
    },
    async delete(realmId, id) {
      return (await q.run('DELETE FROM realm_linkifier WHERE realm_id = ? AND id = ?', realmId, id)).changes > 0;
    },
    async reorder(realmId, ids) {
      for (const [index, id] of ids.entries()) await q.run('UPDATE realm_linkifier SET sort_order = ? WHERE realm_id = ? AND id = ?', index, realmId, id);
    },
  };
}
