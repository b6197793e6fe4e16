import type { CustomProfileField, CustomProfileFieldStore, ProfileFieldValue } from '../profile-field-types.js';
import { insertSql, type TableMap, toRow, updateSql } from './columns.js';
import type { Statements } from './statements.js';
import { nextId } from './kept-ids.js';

const FIELD: TableMap<CustomProfileField> = {
  table: 'custom_profile_field',
  booleans: ['required', 'editableByUser', 'displayInProfileSummary', 'useForUserMatching'],
  json: ['fieldData'],
};
const VALUE: TableMap<ProfileFieldValue> = { table: 'custom_profile_field_value', booleans: [] };
const FIELD_COLUMNS =
  'id, realm_id, name, hint, type, field_data, "order", required, editable_by_user, display_in_profile_summary, use_for_user_matching';
const VALUE_COLUMNS = 'v.user_id, v.field_id, v.value, v.rendered_value';

/** The custom profile field store over a connection's statements. */
export function customProfileFieldStore(q: Statements): CustomProfileFieldStore {
  return {
    async insert(field) {
      // `order` (an SQL keyword) takes its column default, then the new ID.
      const row = toRow({ id: await nextId(q, 'custom_profile_field'), ...field, fieldData: field.fieldData ?? undefined });
      const id = Number((await q.run(insertSql('custom_profile_field', row), row)).lastInsertRowid);
      await q.run('UPDATE custom_profile_field SET "order" = id WHERE id = ?', id);
      return { ...field, id, order: id };
    },
    async list(realmId) {
      return await q.all(FIELD, `SELECT ${FIELD_COLUMNS} FROM custom_profile_field WHERE realm_id = ? ORDER BY "order", id`, realmId);
    },
    async update(realmId, id, patch) {
      const row = toRow(patch);
      if ('fieldData' in patch && patch.fieldData === null) row.field_data = null;
      if (Object.keys(row).length === 0) return;
      await q.run(updateSql('custom_profile_field', row, 'realm_id = @realm_id AND id = @id'), { ...row, realm_id: realmId, id });
    },
    async delete(realmId, id) {
      await q.run('DELETE FROM custom_profile_field_value WHERE field_id IN (SELECT id FROM custom_profile_field WHERE realm_id = ? AND id = ?)', realmId, id);
      await q.run('DELETE FROM custom_profile_field WHERE realm_id = ? AND id = ?', realmId, id);
    },
    async reorder(realmId, ids) {
      for (const [index, id] of ids.entries()) await q.run('UPDATE custom_profile_field SET "order" = ? WHERE realm_id = ? AND id = ?', index, realmId, id);
    },
    async values(realmId, userIds) {
      const base = `SELECT ${VALUE_COLUMNS} FROM custom_profile_field_value v JOIN custom_profile_field f ON f.id = v.field_id WHERE f.realm_id = ?`;
      if (userIds === undefined) return await q.all(VALUE, `${base} ORDER BY v.user_id, f."order", f.id`, realmId);
      return await q.all(
        VALUE,
        `${base} AND v.user_id IN (SELECT value FROM json_each(?)) ORDER BY v.user_id, f."order", f.id`,
        realmId,
        JSON.stringify(userIds),
      );
    },
    async setValue(realmId, value) {
      await q.run(
        `INSERT INTO custom_profile_field_value (field_id, user_id, value, rendered_value)
         SELECT id, ?, ?, ? FROM custom_profile_field WHERE realm_id = ? AND id = ?
         ON CONFLICT (user_id, field_id) DO UPDATE SET value = excluded.value, rendered_value = excluded.rendered_value`,
        value.userId,
        value.value,
        value.renderedValue,
        realmId,
        value.fieldId,
      );
    },
    async removeValue(realmId, userId, fieldId) {
      const { changes } = await q.run(
        'DELETE FROM custom_profile_field_value WHERE user_id = ? AND field_id IN (SELECT id FROM custom_profile_field WHERE realm_id = ? AND id = ?)',
        userId,
        realmId,
        fieldId,
      );
      return changes > 0;
    },
  };
}
