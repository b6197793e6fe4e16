/**
 * IDs that are never handed out twice. SQLite gives a new row the largest rowid plus one, so
 * deleting the newest message would give its ID to the next message; clients keep IDs (caches,
 * anchors, a reminder's target, an event about the deleted one), and the reference's sequences
 * never reuse them. For these tables a trigger remembers the largest ID deleted, and inserts take
 * their ID from `nextId`: above every ID the table ever held.
 */
import type { TableMap } from './columns.js';
import type { Statements } from './statements.js';

export const KEPT_ID_TABLES = [
  'message',
  'scheduled_message',
  'draft',
  'saved_snippet',
  'attachment',
  'realm_linkifier',
  'custom_profile_field',
] as const;

export type KeptIdTable = (typeof KEPT_ID_TABLES)[number];

/** The high-water table, and on each table a trigger raising its mark when a row is deleted. */
export const KEPT_IDS_MIGRATION = `
  CREATE TABLE id_high_water (name TEXT PRIMARY KEY, value INTEGER NOT NULL) WITHOUT ROWID;
  ${KEPT_ID_TABLES.map(
    (table) => `
  CREATE TRIGGER ${table}_id_high_water AFTER DELETE ON ${table} BEGIN
    INSERT INTO id_high_water (name, value) VALUES ('${table}', old.id)
      ON CONFLICT (name) DO UPDATE SET value = max(value, excluded.value);
  END;`,
  ).join('')}
`;

const ID: TableMap<{ id: number }> = { table: 'id_high_water', booleans: [] };

/**
 * The ID for a new row of `table`, as an SQL expression: an INSERT can take it in its VALUES and
 * report the ID it gave (one statement where `nextId` and the INSERT are two). Both lookups are
 * index probes.
 */
export function nextIdSql(table: KeptIdTable): string {
  return `(SELECT max(coalesce((SELECT max(id) FROM ${table}), 0), coalesce((SELECT value FROM id_high_water WHERE name = '${table}'), 0)) + 1)`;
}

/** The ID for a new row of `table`. */
export async function nextId(q: Statements, table: KeptIdTable): Promise<number> {
  return (await q.get(ID, `SELECT ${nextIdSql(table)} AS id`))!.id;
}
