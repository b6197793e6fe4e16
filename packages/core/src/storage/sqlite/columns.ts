/**
 * Maps between camelCase records and snake_case rows. SQLite has no boolean type, so boolean
 * fields are listed per table and stored as 0/1.
 */
export interface TableMap<T> {
  table: string;
  booleans: readonly (keyof T)[];
  /** Columns whose field is not the camelCase of the column name, e.g. `to_address` → `to`. */
  renamed?: Readonly<Record<string, keyof T>>;
}

const snake = (key: string) => key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
const camel = (key: string) => key.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());

/**
 * Compiles a decoder from a statement's result columns to records. Rows are read in raw mode
 * (arrays) and the column-to-field work is done once per statement, not once per row: on a
 * 1,000-row user list this is most of the read's cost.
 */
export function rowDecoder<T>(map: TableMap<T>, columns: readonly string[]): (values: readonly unknown[]) => T {
  const booleans = new Set<string>(map.booleans as readonly string[]);
  const fields = columns.map((column) => (map.renamed?.[column] as string | undefined) ?? camel(column));
  const isBoolean = fields.map((field) => booleans.has(field));
  return (values) => {
    const out: Record<string, unknown> = {};
    for (let i = 0; i < fields.length; i++) out[fields[i]!] = isBoolean[i] ? Boolean(values[i]) : values[i];
    return out as T;
  };
}

/** snake_case row for a record; undefined values are left out (the column keeps its default). */
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
