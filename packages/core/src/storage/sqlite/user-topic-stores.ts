import type { UserTopic, UserTopicStore } from '../user-topic-types.js';
import type { TableMap } from './columns.js';
import type { Statements } from './statements.js';

const ROW: TableMap<UserTopic> = { table: 'user_topic', booleans: [] };
const COLUMNS = 'user_id, stream_id, topic, visibility_policy, last_updated';

/** The user-topic store over a connection's statements. */
export function userTopicStore(q: Statements): UserTopicStore {
  const current = async (realmId: number, userId: number, streamId: number, topic: string) =>
    await q.get(
      ROW,
      `SELECT ${COLUMNS} FROM user_topic WHERE realm_id = ? AND user_id = ? AND stream_id = ? AND topic = ? COLLATE NOCASE`,
      realmId, userId, streamId, topic,
    );
  return {
    async list(realmId, userId) {
      return await q.all(ROW, `SELECT ${COLUMNS} FROM user_topic WHERE realm_id = ? AND user_id = ? ORDER BY stream_id, topic`, realmId, userId);
    },
    async forTopic(realmId, streamId, topic) {
      return await q.all(
        ROW,
        `SELECT ${COLUMNS} FROM user_topic WHERE realm_id = ? AND stream_id = ? AND topic = ? COLLATE NOCASE ORDER BY user_id`,
        realmId,
        streamId,
        topic,
      );
    },
    async set(realmId, userId, streamId, topic, policy, lastUpdated) {
      const row = await current(realmId, userId, streamId, topic);
      if (policy === 0) {
        if (!row) return false;
        await q.run('DELETE FROM user_topic WHERE realm_id = ? AND user_id = ? AND stream_id = ? AND topic = ? COLLATE NOCASE', realmId, userId, streamId, topic);
        return true;
      }
      if (row?.visibilityPolicy === policy) return false;
      if (row) {
        // The row keeps its first spelling of the topic, as the reference's upsert does.
        const { changes } = await q.run(
          'UPDATE user_topic SET visibility_policy = ?, last_updated = ? WHERE realm_id = ? AND user_id = ? AND stream_id = ? AND topic = ? COLLATE NOCASE',
          policy, lastUpdated, realmId, userId, streamId, topic,
        );
        return changes > 0;
      }
      // Inserted only when both the user and the channel belong to the realm.
      const { changes } = await q.run(
        `INSERT INTO user_topic (realm_id, ${COLUMNS})
         SELECT ?, u.id, s.id, ?, ?, ? FROM user u JOIN stream s ON s.realm_id = u.realm_id WHERE u.realm_id = ? AND u.id = ? AND s.id = ?`,
        realmId, topic, policy, lastUpdated, realmId, userId, streamId,
      );
      return changes > 0;
    },
  };
}
