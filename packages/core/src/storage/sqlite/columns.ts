/**
 * Maps between camelCase records and snake_case rows. SQLite has no boolean type, so boolean
 * fields are listed per table and stored as 0/1.
 */
export interface TableMap<T> {
  table: string;
  booleans: readonly (keyof T)[];
}

const snake = (key: string) => key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
const camel = (key: string) => key.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());

export function fromRow<T>(map: TableMap<T>, row: Record<string, unknown>): T {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(row)) out[camel(key)] = value;
  for (const key of map.booleans) out[key as string] = Boolean(out[key as string]);
  return out as T;
}

export function toRow(record: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(record)) {
    if (value === undefined) continue;
    out[snake(key)] = typeof value === 'boolean' ? Number(value) : value;
  }
  return out;
}

/** `INSERT INTO t (a, b) VALUES (@a, @b)` for the row's keys. */
export function insertSql(table: string, row: Record<string, unknown>): string {
  const cols = Object.keys(row);
  return `INSERT INTO ${table} (${cols.join(', ')}) VALUES (${cols.map((c) => `@${c}`).join(', ')})`;
}

/** `UPDATE t SET a = @a, b = @b WHERE <where>` for the row's keys. */
export function updateSql(table: string, row: Record<string, unknown>, where: string): string {
  const sets = Object.keys(row).map((c) => `${c} = @${c}`);
  return `UPDATE ${table} SET ${sets.join(', ')} WHERE ${where}`;
}
