/**
 * Maps between camelCase records and snake_case rows. SQLite has no boolean type, so boolean
 * fields are listed per table and stored as 0/1 (NULL for a nullable one); object fields are
 * stored as JSON text and listed too, to be parsed back.
 */
export interface TableMap<T> {
  table: string;
  booleans: readonly (keyof T)[];
  /**
   * Optional boolean fields (`flag?: boolean`): stored as 0/1 like the others, but a false one
   * is left out of the record, as absent means false.
   */
  optionalBooleans?: readonly (keyof T)[];
  /** Fields stored as JSON text. */
  json?: readonly (keyof T)[];
  /** Columns whose field is not the camelCase of the column name, e.g. `to_address` → `to`. */
  renamed?: Readonly<Record<string, keyof T>>;
  /**
   * SQLite reads of many rows fetch each row as one JSON array text (`json_array(…)`), parsed in
   * JavaScript, instead of one value per column: better-sqlite3 creates every column's value
   * through V8's API, which costs more than SQLite writing the text and JSON.parse reading it
   * (a GET /messages page's 50 messages: about a quarter less CPU for their read). Only for tables
   * whose columns are all INTEGER or TEXT, where the round trip gives back the same values (a
   * REAL would come back with SQLite's 15 significant digits); the driver checks this.
   */
  packed?: true;
}

const snake = (key: string) => key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
const camel = (key: string) => key.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());

/**
 * Compiles a decoder from a statement's result columns to records. Rows are read in raw mode
 * (arrays) and the column-to-field work is done once per statement, not once per row: on a
 * 1,000-row user list this is most of the read's cost. The decoder is generated code building
 * each record as one object literal, so every record of a statement is born with its final
 * shape (no per-field property additions, no shape transitions) and V8 keeps the decoder
 * monomorphic. Field names come from the schema's column names, never from data.
 */
export function rowDecoder<T>(map: TableMap<T>, columns: readonly string[]): (values: readonly unknown[]) => T {
  const booleans = new Set<string>(map.booleans as readonly string[]);
  const jsons = new Set<string>((map.json ?? []) as readonly string[]);
  const optional = new Set<string>((map.optionalBooleans ?? []) as readonly string[]);
  const literal: string[] = [];
  const optionals: string[] = [];
  columns.forEach((column, i) => {
    const field = (map.renamed?.[column] as string | undefined) ?? camel(column);
    const key = JSON.stringify(field);
    // An optional boolean is left out when false (absent means false), so it is added after.
    if (optional.has(field)) optionals.push(`if (v[${i}]) o[${key}] = true;`);
    else literal.push(`${key}: ${booleans.has(field) ? `bool(v[${i}])` : jsons.has(field) ? `json(v[${i}])` : `v[${i}]`}`);
  });
  const body = `return (v) => { const o = { ${literal.join(', ')} }; ${optionals.join(' ')} return o; };`;
  return new Function('bool', 'json', body)(toBoolean, parseJson) as (values: readonly unknown[]) => T;
}

/** 0/1 as a boolean; NULL (a nullable boolean column) stays null. */
const toBoolean = (value: unknown) => (value === null ? null : Boolean(value));

/** Most users keep every default: their `{}` decodes to one shared, frozen object. */
const EMPTY_OBJECT = Object.freeze({});

/** Most messages were never edited: their `[]` is a new empty array without a parse (callers may push). */
const parseJson = (text: string): unknown => (text === '{}' ? EMPTY_OBJECT : text === '[]' ? [] : JSON.parse(text));

/**
 * snake_case row for a record; undefined values are left out (the column keeps its default).
 * Booleans become 0/1 and objects JSON text.
 */
export function toRow(record: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(record)) {
    if (value === undefined) continue;
    out[snake(key)] =
      typeof value === 'boolean' ? Number(value) : typeof value === 'object' && value !== null ? JSON.stringify(value) : value;
  }
  return out;
}

/**
 * `INSERT INTO t (a, b) VALUES (@a, @b)` for the row's keys; `computed` adds columns whose value
 * is an SQL expression (`{ id: nextIdSql(t) }`), placed first.
 */
export function insertSql(table: string, row: Record<string, unknown>, computed: Record<string, string> = {}): string {
  const cols = Object.keys(row);
  const names = [...Object.keys(computed), ...cols];
  const values = [...Object.values(computed), ...cols.map((c) => `@${c}`)];
  return `INSERT INTO ${table} (${names.join(', ')}) VALUES (${values.join(', ')})`;
}

/** `UPDATE t SET a = @a, b = @b WHERE <where>` for the row's keys. */
export function updateSql(table: string, row: Record<string, unknown>, where: string): string {
  const sets = Object.keys(row).map((c) => `${c} = @${c}`);
  return `UPDATE ${table} SET ${sets.join(', ')} WHERE ${where}`;
}
