import type { StoredUserGroup, UserGroupStore } from '../user-group-types.js';
import type { TableMap } from './columns.js';
import type { Statements } from './statements.js';

const GROUP: TableMap<StoredUserGroup> = { table: 'user_group', booleans: ['deactivated'], json: ['members', 'subgroups', 'settings'] };
// Members and subgroups come with the group as JSON lists, ascending, so a realm's groups are one query.
// (The subqueries are named because PostgreSQL 15 requires it.)
const SELECT = `SELECT g.id, g.realm_id, g.name, g.description, g.creator_id, g.date_created, g.deactivated,
  (SELECT json_group_array(user_id) FROM (SELECT user_id FROM user_group_member WHERE group_id = g.id ORDER BY user_id) AS m) AS members,
  (SELECT json_group_array(subgroup_id) FROM (SELECT subgroup_id FROM user_group_subgroup WHERE supergroup_id = g.id ORDER BY subgroup_id) AS s) AS subgroups,
  g.settings
  FROM user_group g`;

/** The user-group store over a connection's statements. */
export function userGroupStore(q: Statements): UserGroupStore {
  const owned = async (realmId: number, id: number) => await q.get(GROUP, 'SELECT id FROM user_group WHERE realm_id = ? AND id = ?', realmId, id) !== undefined;
  return {
    async list(realmId) {
      return await q.all(GROUP, `${SELECT} WHERE g.realm_id = ? ORDER BY g.id`, realmId);
    },
    async get(realmId, id) {
      return await q.get(GROUP, `${SELECT} WHERE g.realm_id = ? AND g.id = ?`, realmId, id);
    },
    async insert(realmId, group) {
      const { lastInsertRowid } = await q.run(
        'INSERT INTO user_group (realm_id, name, description, creator_id, date_created, settings) VALUES (?, ?, ?, ?, ?, ?)',
        realmId,
        group.name,
        group.description,
        group.creatorId,
        group.dateCreated,
        JSON.stringify(group.settings),
      );
      const id = Number(lastInsertRowid);
      await q.insertRows('INSERT OR IGNORE INTO user_group_member (group_id, user_id) VALUES (?, ?)', group.members.map((userId) => [id, userId]));
      return { id, realmId, ...group, deactivated: false, members: [...new Set(group.members)].sort((a, b) => a - b), subgroups: [] };
    },
    async update(realmId, id, patch) {
      if (patch.name !== undefined) await q.run('UPDATE user_group SET name = ? WHERE realm_id = ? AND id = ?', patch.name, realmId, id);
      if (patch.description !== undefined) await q.run('UPDATE user_group SET description = ? WHERE realm_id = ? AND id = ?', patch.description, realmId, id);
      if (patch.deactivated !== undefined) await q.run('UPDATE user_group SET deactivated = ? WHERE realm_id = ? AND id = ?', patch.deactivated ? 1 : 0, realmId, id);
      if (patch.settings !== undefined) await q.run('UPDATE user_group SET settings = ? WHERE realm_id = ? AND id = ?', JSON.stringify(patch.settings), realmId, id);
    },
    async addMembers(realmId, id, userIds) {
      if (!(await owned(realmId, id))) return;
      await q.insertRows('INSERT OR IGNORE INTO user_group_member (group_id, user_id) VALUES (?, ?)', userIds.map((userId) => [id, userId]));
    },
    async removeMembers(realmId, id, userIds) {
      if (!(await owned(realmId, id))) return;
      await q.runEach('DELETE FROM user_group_member WHERE group_id = ? AND user_id = ?', userIds.map((userId) => [id, userId]));
    },
    async addSubgroups(realmId, id, subgroupIds) {
      if (!(await owned(realmId, id))) return;
      await q.insertRows('INSERT OR IGNORE INTO user_group_subgroup (supergroup_id, subgroup_id) VALUES (?, ?)', subgroupIds.map((subgroupId) => [id, subgroupId]));
    },
    async removeSubgroups(realmId, id, subgroupIds) {
      if (!(await owned(realmId, id))) return;
      await q.runEach('DELETE FROM user_group_subgroup WHERE supergroup_id = ? AND subgroup_id = ?', subgroupIds.map((subgroupId) => [id, subgroupId]));
    },
  };
}
