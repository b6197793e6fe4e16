/**
 * Translates the store code's SQL (written once, in SQLite's dialect) to PostgreSQL, once per
 * SQL text. The store SQL keeps to a small subset, so the translation is a handful of rewrites:
 * parameters (`?`, `@name`) to `$n`, the reserved table name `user`, `INSERT OR IGNORE`,
 * `IN (SELECT value FROM json_each(?))` lists (an array parameter), full-text MATCH, `? IS NULL`,
 * the ID an INSERT returns (`RETURNING id`), and the type of parameters PostgreSQL cannot infer
 * (the select list of `INSERT … SELECT`). What SQLite has and PostgreSQL lacks as a function
 * (two-argument `max`, `instr`, `search_step`, `json_valid`) is defined in the schema instead
 * (schema.ts), and NOCASE is a case-insensitive ICU collation of the same name.
 */

/** A parameter whose JavaScript value is converted before it is sent. */
export type ParamKind = 'plain' | 'array' | 'fts';

export interface Translated {
  text: string;
  /** For named parameters: the name of each `$n`, in order; undefined for positional ones. */
  names?: string[];
  /** How each `$n`'s value is converted (index n - 1). */
  kinds: ParamKind[];
  /** Whether the statement returns the inserted row's `id` (an INSERT into a table that has one). */
  returnsId: boolean;
  /** `UPDATE OR IGNORE`: a unique violation changes nothing instead of failing (run in a savepoint). */
  ignoreUnique?: boolean;
}

/** What the translation needs to know of the schema: each table's column types. */
export type ColumnTypes = ReadonlyMap<string, ReadonlyMap<string, string>>;

const ARRAY_MARK = '\u0001array';
const FTS_MARK = '\u0001fts';

/** Quotes `user` where it names the table (PostgreSQL reserves the word). */
export function quoteUserTable(sql: string): string {
  return sql.replace(/\b(FROM|JOIN|INTO|UPDATE|REFERENCES|TABLE|ON)(\s+)user\b(?!\s*\.)/g, '$1$2"user"');
}

/** Translates one statement of the store code. */
export function translateStatement(sql: string, columns: ColumnTypes): Translated {
  let text = quoteUserTable(sql);
  let ignore = false;
  text = text.replace(/^(\s*)INSERT OR IGNORE INTO/i, (_, space: string) => {
    ignore = true;
    return `${space}INSERT INTO`;
  });
  let ignoreUnique = false;
  text = text.replace(/^(\s*)UPDATE OR IGNORE /i, (_, space: string) => {
    ignoreUnique = true;
    return `${space}UPDATE `;
  });
  text = text
    // SQLite's LIMIT -1 is no limit; PostgreSQL's is LIMIT NULL.
    .replace(/\bLIMIT \?/g, 'LIMIT nullif(?::bigint, -1)')
    .replace(/\bNOT IN \(SELECT value FROM json_each\(\?\)\)/g, `<> ALL(?${ARRAY_MARK})`)
    .replace(/\bIN \(SELECT value FROM json_each\(\?\)\)/g, `= ANY(?${ARRAY_MARK})`)
    .replace(/\bmessage_fts MATCH \?/g, `message_fts.tsv @@ fts_query(?${FTS_MARK})`)
    .replace(/\? IS NULL\b/g, '?::text IS NULL')
    // A bare 0 condition (a narrow that matches nothing): PostgreSQL wants a boolean.
    .replace(/\bAND 0\b/g, 'AND false')
    .replace(/\bNOT \(0\)/g, 'NOT (false)');
  // ON CONFLICT … SET x = max(x, excluded.x): PostgreSQL wants the target's column qualified.
  const target = /^\s*INSERT INTO ("?\w+"?)/i.exec(text)?.[1];
  if (target) text = text.replace(/= max\((\w+), excluded\.\1\)/g, `= max(${target}.$1, excluded.$1)`);
  const table = target?.replace(/"/g, '');
  const insertColumns = table ? columns.get(table) : undefined;
  if (table && insertColumns) text = castInsertSelect(text, insertColumns);
  if (ignore) text = appendBeforeReturning(text, ' ON CONFLICT DO NOTHING');
  const returnsId = Boolean(insertColumns?.has('id')) && !/\bRETURNING\b/i.test(text);
  if (returnsId) text = `${text} RETURNING id`;
  return { ...numberParameters(text), returnsId, ignoreUnique };
}

/** Appends a clause before a RETURNING clause, or at the end. */
function appendBeforeReturning(text: string, clause: string): string {
  const at = text.search(/\sRETURNING\b/i);
  return at < 0 ? `${text.trimEnd()}${clause}` : `${text.slice(0, at)}${clause}${text.slice(at)}`;
}

/**
 * `INSERT INTO t (a, b) SELECT ?, x FROM …`: PostgreSQL types an unknown parameter of a select
 * list as text, which a BIGINT column refuses; it gets the column's type.
 */
function castInsertSelect(text: string, types: ReadonlyMap<string, string>): string {
  const match = /^(\s*INSERT INTO "?\w+"?\s*\(([^)]*)\)\s*SELECT\s+)([\s\S]*?)(\s+FROM\s[\s\S]*)$/i.exec(text);
  if (!match) return text;
  const names = match[2]!.split(',').map((name) => name.trim().replace(/"/g, ''));
  const items = splitTopLevel(match[3]!);
  if (items.length !== names.length) return text;
  const cast = items.map((item, i) => {
    const type = types.get(names[i]!);
    return item.trim() === '?' && type ? item.replace('?', `?::${type}`) : item;
  });
  return `${match[1]}${cast.join(',')}${match[4]}`;
}

/** Splits a list on its top-level commas. */
function splitTopLevel(list: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < list.length; i++) {
    const c = list[i];
    if (c === '(') depth++;
    else if (c === ')') depth--;
    else if (c === ',' && depth === 0) {
      out.push(list.slice(start, i));
      start = i + 1;
    }
  }
  out.push(list.slice(start));
  return out;
}

/** Numbers `?` and `@name` parameters as `$n`, outside string literals and quoted names. */
function numberParameters(text: string): Translated {
  let out = '';
  const kinds: ParamKind[] = [];
  const names: string[] = [];
  const named = new Map<string, number>();
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (c === "'" || c === '"') {
      const end = text.indexOf(c, i + 1);
      const stop = end < 0 ? text.length : end + 1;
      out += text.slice(i, stop);
      i = stop;
    } else if (c === '?') {
      let kind: ParamKind = 'plain';
      let next = i + 1;
      if (text.startsWith(ARRAY_MARK, next)) {
        kind = 'array';
        next += ARRAY_MARK.length;
      } else if (text.startsWith(FTS_MARK, next)) {
        kind = 'fts';
        next += FTS_MARK.length;
      }
      kinds.push(kind);
      out += `$${kinds.length}`;
      i = next;
    } else if (c === '@' && /[A-Za-z_]/.test(text[i + 1] ?? '')) {
      const name = /^[A-Za-z_]\w*/.exec(text.slice(i + 1))![0];
      let index = named.get(name);
      if (index === undefined) {
        kinds.push('plain');
        names.push(name);
        index = kinds.length;
        named.set(name, index);
      }
      out += `$${index}`;
      i += name.length + 1;
    } else {
      out += c;
      i++;
    }
  }
  return { text: out, kinds, names: names.length > 0 ? names : undefined, returnsId: false };
}

/** A JavaScript array as a PostgreSQL array literal (elements quoted, so text and numbers both parse). */
export function arrayLiteral(values: readonly unknown[]): string {
  const quote = (value: unknown) => {
    if (value === null) return 'NULL';
    return `"${String(storableScalar(value)).replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
  };
  return `{${values.map(quote).join(',')}}`;
}

const INT8_MAX = 9223372036854775807n;
const INT8_MIN = -9223372036854775808n;

/**
 * A parameter value PostgreSQL can take where SQLite took it as it is. Text cannot hold NUL
 * (U+0000), so it becomes U+FFFD, which no lookup of stored text then matches by accident; an
 * integer past bigint's range (a JSON ID such as 1e23, or an infinity) is clamped to the range, which no stored
 * ID reaches, so a lookup finds nothing instead of failing the statement.
 */
export function storableScalar(value: unknown): unknown {
  if (typeof value === 'string') return value.includes('\u0000') ? value.replaceAll('\u0000', '\uFFFD') : value;
  if (typeof value === 'number' && !Number.isFinite(value)) {
    return Number.isNaN(value) ? null : String(value > 0 ? INT8_MAX : INT8_MIN);
  }
  if (typeof value === 'number' && Number.isInteger(value) && !Number.isSafeInteger(value)) {
    const big = BigInt(value);
    return String(big > INT8_MAX ? INT8_MAX : big < INT8_MIN ? INT8_MIN : big);
  }
  return value;
}

/**
 * An FTS5 query of the store code (`"word"* "other"*`, alternatives joined by OR, groups in
 * parentheses; `""` matches nothing) as a tsquery text for fts_query(): each word a prefix
 * match, words joined by AND. Words hold letters, digits and `_` only (message-query.ts).
 */
export function ftsToTsquery(query: string): string {
  return query
    .replace(/"([^"]*)"\*/g, (_, word: string) => {
      const parts = word.toLowerCase().split('_').filter(Boolean);
      return parts.length === 0 ? '' : `(${parts.map((part) => `${part}:*`).join(' <-> ')})`;
    })
    .replace(/""/g, '')
    .replace(/\)\s+\(/g, ') & (')
    .replace(/\s+OR\s+/g, ' | ')
    .trim();
}
