import type { Submessage, SubmessageStore } from '../submessage-types.js';
import type { TableMap } from './columns.js';
import type { Statements } from './statements.js';

const SUBMESSAGE: TableMap<Submessage> = { table: 'submessage', booleans: [] };
const COUNT: TableMap<{ n: number }> = { table: 'submessage', booleans: [] };
const COLUMNS = 'id, message_id, sender_id, msg_type, content';

/** The submessage store over a connection's statements. */
export function submessageStore(q: Statements): SubmessageStore {
  return {
    async insert(realmId, s) {
      // Through the message row: a message of another realm inserts nothing.
      const { changes, lastInsertRowid } = await q.run(
        `INSERT INTO submessage (realm_id, message_id, sender_id, msg_type, content)
         SELECT realm_id, id, ?, ?, ? FROM message WHERE id = ? AND realm_id = ?`,
        s.senderId,
        s.msgType,
        s.content,
        s.messageId,
        realmId,
      );
      return changes > 0 ? { id: Number(lastInsertRowid), ...s } : undefined;
    },
    async forMessages(realmId, messageIds) {
      if (messageIds.length === 0) return [];
      return await q.all(
        SUBMESSAGE,
        `SELECT ${COLUMNS} FROM submessage
         WHERE message_id IN (SELECT value FROM json_each(?)) AND realm_id = ? ORDER BY id`,
        JSON.stringify(messageIds),
        realmId,
      );
    },
    async first(realmId, messageId, msgType) {
      return msgType === undefined
        ? await q.get(SUBMESSAGE, `SELECT ${COLUMNS} FROM submessage WHERE message_id = ? AND realm_id = ? ORDER BY id LIMIT 1`, messageId, realmId)
        : await q.get(
            SUBMESSAGE,
            `SELECT ${COLUMNS} FROM submessage WHERE message_id = ? AND realm_id = ? AND msg_type = ? ORDER BY id LIMIT 1`,
            messageId,
            realmId,
            msgType,
          );
    },
    async count(realmId, messageId) {
      return (await q.get(COUNT, 'SELECT count(*) AS n FROM submessage WHERE message_id = ? AND realm_id = ?', messageId, realmId))!.n;
    },
  };
}
