import type { ChannelFolder, ChannelFolderStore } from '../channel-folder-types.js';
import type { TableMap } from './columns.js';
import type { Statements } from './statements.js';

const FOLDER: TableMap<ChannelFolder> = { table: 'channel_folder', booleans: ['isArchived'], renamed: { sort_order: 'order' } };
const COLUMNS = 'id, realm_id, name, description, rendered_description, creator_id, date_created, is_archived, sort_order';

/** The channel-folder store over a connection's statements. */
export function channelFolderStore(q: Statements): ChannelFolderStore {
  const byId = async (realmId: number, id: number) => await q.get(FOLDER, `SELECT ${COLUMNS} FROM channel_folder WHERE realm_id = ? AND id = ?`, realmId, id);
  return {
    async list(realmId) {
      return await q.all(FOLDER, `SELECT ${COLUMNS} FROM channel_folder WHERE realm_id = ? ORDER BY sort_order, id`, realmId);
    },
    async byId(realmId, id) {
      return byId(realmId, id);
    },
    async insert(folder) {
      // OR IGNORE: a taken name (the unique index) writes nothing.
      const { changes, lastInsertRowid } = await q.run(
        `INSERT OR IGNORE INTO channel_folder (realm_id, name, name_key, description, rendered_description, creator_id, date_created, is_archived, sort_order)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, (SELECT COALESCE(MAX(sort_order), -1) + 1 FROM channel_folder WHERE realm_id = ?))`,
        folder.realmId,
        folder.name,
        folder.name.toLowerCase(),
        folder.description,
        folder.renderedDescription,
        folder.creatorId,
        folder.dateCreated,
        Number(folder.isArchived),
        folder.realmId,
      );
      return changes === 1 ? byId(folder.realmId, Number(lastInsertRowid)) : undefined;
    },
    async update(realmId, id, patch) {
      const { changes } = await q.run(
        `UPDATE OR IGNORE channel_folder SET name = COALESCE(?, name), name_key = COALESCE(?, name_key),
           description = COALESCE(?, description), rendered_description = COALESCE(?, rendered_description),
           is_archived = COALESCE(?, is_archived)
         WHERE realm_id = ? AND id = ?`,
        patch.name ?? null,
        patch.name === undefined ? null : patch.name.toLowerCase(),
        patch.description ?? null,
        patch.renderedDescription ?? null,
        patch.isArchived === undefined ? null : Number(patch.isArchived),
        realmId,
        id,
      );
      return changes === 1;
    },
    async reorder(realmId, ids) {
      for (const [index, id] of ids.entries()) await q.run('UPDATE channel_folder SET sort_order = ? WHERE realm_id = ? AND id = ?', index, realmId, id);
    },
  };
}
