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
  const jsons = new Set<string>((map.json ?? []) as readonly string[]);
  const fields = columns.map((column) => (map.renamed?.[column] as string | undefined) ?? camel(column));
  const optional = new Set<string>((map.optionalBooleans ?? []) as readonly string[]);
  const kinds = fields.map((field) => (booleans.has(field) ? BOOLEAN : optional.has(field) ? OPTIONAL_BOOLEAN : jsons.has(field) ? JSON_TEXT : PLAIN));
  return (values) => {
    const out: Record<string, unknown> = {};
    for (let i = 0; i < fields.length; i++) {
      const kind = kinds[i];
      if (kind === OPTIONAL_BOOLEAN) {
        if (values[i]) out[fields[i]!] = true;
        continue;
      }
      out[fields[i]!] = kind === PLAIN ? values[i] : kind === BOOLEAN ? toBoolean(values[i]) : parseJson(values[i] as string);
    }
    return out as T;
  };
}

/** 0/1 as a boolean; NULL (a nullable boolean column) stays null. */
const toBoolean = (value: unknown) => (value === null ? null : Boolean(value));

const PLAIN = 0;
const BOOLEAN = 1;
const JSON_TEXT = 2;
const OPTIONAL_BOOLEAN = 3;

/** Most users keep every default: their `{}` decodes to one shared, frozen object. */
const EMPTY_OBJECT = Object.freeze({});

const parseJson = (text: string): unknown => (text === '{}' ? EMPTY_OBJECT : JSON.parse(text));

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
