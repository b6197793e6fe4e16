import type { Draft, DraftFields, DraftStore } from '../draft-types.js';
import type { TableMap } from './columns.js';
import type { Statements } from './statements.js';
import { nextId } from './kept-ids.js';

const DRAFT: TableMap<Draft> = { table: 'draft', booleans: [], json: ['to'], renamed: { to_ids: 'to' } };
const COLUMNS = 'id, realm_id, user_id, type, to_ids, topic, content, last_edit_time';

const values = (fields: DraftFields) => [fields.type, JSON.stringify(fields.to), fields.topic, fields.content, fields.lastEditTime];

/** The draft store over a connection's statements. */
export function draftStore(q: Statements): DraftStore {
  const get = async (realmId: number, userId: number, id: number) =>
    await q.get(DRAFT, `SELECT ${COLUMNS} FROM draft WHERE realm_id = ? AND user_id = ? AND id = ?`, realmId, userId, id);
  return {
    async list(realmId, userId, options = {}) {
      const order = options.newestFirst ? 'DESC' : 'ASC';
      return await q.all(
        DRAFT,
        `SELECT ${COLUMNS} FROM draft WHERE realm_id = ? AND user_id = ? ORDER BY last_edit_time ${order}, id ${order} LIMIT ?`,
        realmId,
        userId,
        options.limit ?? -1,
      );
    },
    get: async (realmId, userId, id) => get(realmId, userId, id),
    async insert(realmId, userId, drafts) {
      const out: Draft[] = [];
      for (const fields of drafts) {
        // Through the user row, so a user of another realm gets nothing written.
        const { changes, lastInsertRowid } = await q.run(
          'INSERT INTO draft (id, realm_id, user_id, type, to_ids, topic, content, last_edit_time) SELECT ?, realm_id, id, ?, ?, ?, ?, ? FROM user WHERE realm_id = ? AND id = ?',
          await nextId(q, 'draft'),
          ...values(fields),
          realmId,
          userId,
        );
        if (changes === 1) out.push((await get(realmId, userId, Number(lastInsertRowid)))!);
      }
      return out;
    },
    async update(realmId, userId, id, fields) {
      const { changes } = await q.run(
        'UPDATE draft SET type = ?, to_ids = ?, topic = ?, content = ?, last_edit_time = ? WHERE realm_id = ? AND user_id = ? AND id = ?',
        ...values(fields),
        realmId,
        userId,
        id,
      );
      return changes === 1 ? get(realmId, userId, id) : undefined;
    },
    async delete(realmId, userId, id) {
      return (await q.run('DELETE FROM draft WHERE realm_id = ? AND user_id = ? AND id = ?', realmId, userId, id)).changes === 1;
    },
  };
}
