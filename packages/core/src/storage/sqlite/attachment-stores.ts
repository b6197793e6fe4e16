import type { Attachment, AttachmentStore } from '../attachment-types.js';
import { insertSql, type TableMap, toRow } from './columns.js';
import type { Statements } from './statements.js';
import { nextId } from './kept-ids.js';

const ATTACHMENT: TableMap<Attachment> = { table: 'attachment', booleans: [] };
const LINK: TableMap<{ messageId: number; attachmentId: number }> = { table: 'message_attachment', booleans: [] };
const ID: TableMap<{ id: number }> = { table: 'attachment', booleans: [] };
const TOTAL: TableMap<{ total: number }> = { table: 'attachment', booleans: [] };
const COLUMNS = 'id, realm_id, owner_id, path_id, file_name, size, content_type, create_time';
const json = (values: readonly unknown[]) => JSON.stringify(values);

/** The attachment store over a connection's statements. */
export function attachmentStore(q: Statements): AttachmentStore {
  return {
    async insert(attachment) {
      const { id: _id, ...fields } = attachment as Attachment;
      const row = toRow({ id: await nextId(q, 'attachment'), ...fields });
      const { lastInsertRowid } = await q.run(insertSql('attachment', row), row);
      return { ...fields, id: Number(lastInsertRowid) };
    },
    async byId(realmId, id) {
      return await q.get(ATTACHMENT, `SELECT ${COLUMNS} FROM attachment WHERE realm_id = ? AND id = ?`, realmId, id);
    },
    async byPathId(realmId, pathId) {
      return await q.get(ATTACHMENT, `SELECT ${COLUMNS} FROM attachment WHERE realm_id = ? AND path_id = ?`, realmId, pathId);
    },
    async byPathIds(realmId, pathIds) {
      if (pathIds.length === 0) return [];
      return await q.all(
        ATTACHMENT,
        `SELECT ${COLUMNS} FROM attachment WHERE realm_id = ? AND path_id IN (SELECT value FROM json_each(?)) ORDER BY id`,
        realmId,
        json(pathIds),
      );
    },
    async listByOwner(realmId, ownerId) {
      return await q.all(ATTACHMENT, `SELECT ${COLUMNS} FROM attachment WHERE realm_id = ? AND owner_id = ? ORDER BY id`, realmId, ownerId);
    },
    async messageIds(attachmentIds) {
      const out = new Map<number, number[]>(attachmentIds.map((id) => [id, []]));
      if (attachmentIds.length === 0) return out;
      const links = await q.all(
        LINK,
        `SELECT message_id, attachment_id FROM message_attachment
         WHERE attachment_id IN (SELECT value FROM json_each(?)) ORDER BY attachment_id, message_id`,
        json(attachmentIds),
      );
      for (const link of links) out.get(link.attachmentId)?.push(link.messageId);
      return out;
    },
    async linkedTo(messageIds) {
      if (messageIds.length === 0) return [];
      const rows = await q.all(
        ID,
        `SELECT DISTINCT attachment_id AS id FROM message_attachment WHERE message_id IN (SELECT value FROM json_each(?)) ORDER BY attachment_id`,
        json(messageIds),
      );
      return rows.map((r) => r.id);
    },
    async link(messageId, attachmentIds) {
      for (const id of attachmentIds) await q.run('INSERT OR IGNORE INTO message_attachment (message_id, attachment_id) VALUES (?, ?)', messageId, id);
    },
    async unlink(messageId, attachmentIds) {
      for (const id of attachmentIds) await q.run('DELETE FROM message_attachment WHERE message_id = ? AND attachment_id = ?', messageId, id);
    },
    async delete(realmId, id) {
      return (await q.run('DELETE FROM attachment WHERE realm_id = ? AND id = ?', realmId, id)).changes === 1;
    },
    async spaceUsed(realmId) {
      return (await q.get(TOTAL, 'SELECT COALESCE(SUM(size), 0) AS total FROM attachment WHERE realm_id = ?', realmId))?.total ?? 0;
    },
    async unusedBefore(createdBeforeSeconds) {
      return await q.all(
        ATTACHMENT,
        `SELECT ${COLUMNS} FROM attachment a WHERE create_time < ?
         AND NOT EXISTS (SELECT 1 FROM message_attachment l WHERE l.attachment_id = a.id) ORDER BY id`,
        createdBeforeSeconds,
      );
    },
  };
}
