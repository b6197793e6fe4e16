import type { ScheduledDeliveryType, ScheduledMessage, ScheduledMessageFields, ScheduledMessageStore } from '../scheduled-message-types.js';
import type { TableMap } from './columns.js';
import type { Statements } from './statements.js';
import { nextId } from './kept-ids.js';

const SCHEDULED: TableMap<ScheduledMessage> = { table: 'scheduled_message', booleans: ['failed'], json: ['recipientIds'] };
const COLUMNS = 'id, realm_id, sender_id, type, stream_id, recipient_ids, topic, content, rendered_content, delivery_timestamp, failed, ' +
  'delivery_type, reminder_target_message_id, reminder_note';

const values = (f: ScheduledMessageFields) => [
  f.type,
  f.streamId,
  JSON.stringify(f.recipientIds),
  f.topic,
  f.content,
  f.renderedContent,
  f.deliveryTimestamp,
  f.failed ? 1 : 0,
];

const kindOf = (f: ScheduledMessageFields): ScheduledDeliveryType => f.deliveryType ?? 'send_later';

/** The scheduled-message store over a connection's statements. */
export function scheduledMessageStore(q: Statements): ScheduledMessageStore {
  const get = async (realmId: number, userId: number, id: number, kind: ScheduledDeliveryType = 'send_later') =>
    await q.get(
      SCHEDULED,
      `SELECT ${COLUMNS} FROM scheduled_message WHERE realm_id = ? AND sender_id = ? AND id = ? AND delivery_type = ?`,
      realmId,
      userId,
      id,
      kind,
    );
  return {
    async list(realmId, userId, kind = 'send_later') {
      return await q.all(
        SCHEDULED,
        `SELECT ${COLUMNS} FROM scheduled_message WHERE realm_id = ? AND sender_id = ? AND delivery_type = ? ORDER BY delivery_timestamp, id`,
        realmId,
        userId,
        kind,
      );
    },
    get: async (realmId, userId, id, kind) => get(realmId, userId, id, kind),
    async insert(realmId, userId, fields) {
      // Through the user row, so a user of another realm gets nothing written.
      const { changes, lastInsertRowid } = await q.run(
        `INSERT INTO scheduled_message (id, realm_id, sender_id, type, stream_id, recipient_ids, topic, content, rendered_content, delivery_timestamp, failed,
         delivery_type, reminder_target_message_id, reminder_note)
         SELECT ?, realm_id, id, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ? FROM user WHERE realm_id = ? AND id = ?`,
        await nextId(q, 'scheduled_message'),
        ...values(fields),
        kindOf(fields),
        fields.reminderTargetMessageId ?? null,
        fields.reminderNote ?? null,
        realmId,
        userId,
      );
      return changes === 1 ? get(realmId, userId, Number(lastInsertRowid), kindOf(fields)) : undefined;
    },
    async update(realmId, userId, id, fields) {
      const { changes } = await q.run(
        `UPDATE scheduled_message SET type = ?, stream_id = ?, recipient_ids = ?, topic = ?, content = ?, rendered_content = ?,
         delivery_timestamp = ?, failed = ? WHERE realm_id = ? AND sender_id = ? AND id = ? AND delivery_type = ?`,
        ...values(fields),
        realmId,
        userId,
        id,
        kindOf(fields),
      );
      return changes === 1 ? get(realmId, userId, id, kindOf(fields)) : undefined;
    },
    async delete(realmId, userId, id, kind = 'send_later') {
      return (
        (await q.run('DELETE FROM scheduled_message WHERE realm_id = ? AND sender_id = ? AND id = ? AND delivery_type = ?', realmId, userId, id, kind)).changes === 1
      );
    },
    async due(nowSeconds) {
      return await q.all(
        SCHEDULED,
        `SELECT ${COLUMNS} FROM scheduled_message WHERE failed = 0 AND delivery_timestamp <= ? ORDER BY delivery_timestamp, id`,
        nowSeconds,
      );
    },
    async nextDue() {
      const row = await q.get<{ next: number | null }>(
        { table: 'scheduled_message', booleans: [] },
        'SELECT MIN(delivery_timestamp) AS next FROM scheduled_message WHERE failed = 0',
      );
      return row?.next ?? undefined;
    },
  };
}
