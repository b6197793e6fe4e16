import type { StoredUserGroup, UserGroupStore } from '../user-group-types.js';
import type { TableMap } from './columns.js';
import type { Statements } from './statements.js';

const GROUP: TableMap<StoredUserGroup> = { table: 'user_group', booleans: ['deactivated'], json: ['members'] };
// Members come with the group as one JSON list, ascending, so a realm's groups are one query.
const SELECT = `SELECT g.id, g.realm_id, g.name, g.description, g.creator_id, g.date_created, g.deactivated,
  (SELECT json_group_array(user_id) FROM (SELECT user_id FROM user_group_member WHERE group_id = g.id ORDER BY user_id)) AS members
  FROM user_group g`;

/** The user-group store over a connection's statements. */
export function userGroupStore(q: Statements): UserGroupStore {
  const owned = (realmId: number, id: number) => q.get(GROUP, 'SELECT id FROM user_group WHERE realm_id = ? AND id = ?', realmId, id) !== undefined;
  return {
    async list(realmId) {
      return q.all(GROUP, `${SELECT} WHERE g.realm_id = ? ORDER BY g.id`, realmId);
    },
    async get(realmId, id) {
      return q.get(GROUP, `${SELECT} WHERE g.realm_id = ? AND g.id = ?`, realmId, id);
    },
    async insert(realmId, group) {
      const { lastInsertRowid } = q.run(
        'INSERT INTO user_group (realm_id, name, description, creator_id, date_created) VALUES (?, ?, ?, ?, ?)',
        realmId,
        group.name,
        group.description,
        group.creatorId,
        group.dateCreated,
      );
      const id = Number(lastInsertRowid);
      for (const userId of group.members) q.run('INSERT OR IGNORE INTO user_group_member (group_id, user_id) VALUES (?, ?)', id, userId);
      return { id, realmId, ...group, deactivated: false, members: [...new Set(group.members)].sort((a, b) => a - b) };
    },
    async addMembers(realmId, id, userIds) {
      if (!owned(realmId, id)) return;
      for (const userId of userIds) q.run('INSERT OR IGNORE INTO user_group_member (group_id, user_id) VALUES (?, ?)', id, userId);
    },
    async removeMembers(realmId, id, userIds) {
      if (!owned(realmId, id)) return;
      for (const userId of userIds) q.run('DELETE FROM user_group_member WHERE group_id = ? AND user_id = ?', id, userId);
    },
  };
}
