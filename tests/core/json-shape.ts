/**
 * A small JSON shape checker for the client-compatibility tests: a shape names, for each key a
 * client requires, the JSON type it decodes the value as, and the shapes of nested records.
 * `check` lists every problem (missing key, wrong type) with its path, so one failing test
 * names all of them at once.
 */
export type JsonType = 'string' | 'integer' | 'number' | 'boolean' | 'array' | 'object' | 'null';

export type Shape = { [key: string]: FieldShape };

export type FieldShape =
  | JsonType
  | readonly JsonType[]
  | { list: FieldShape }
  /** A JSON object used as a map: every value has this shape. */
  | { dict: FieldShape }
  | { record: Shape; nullable?: boolean };

function typeOf(value: unknown): JsonType {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value as JsonType;
}

function matches(value: unknown, type: JsonType): boolean {
  const actual = typeOf(value);
  return actual === type || (type === 'number' && actual === 'integer');
}

// Array.isArray does not narrow readonly arrays.
const isTypeList = (shape: FieldShape): shape is readonly JsonType[] => Array.isArray(shape);

function checkField(value: unknown, shape: FieldShape, path: string, problems: string[]): void {
  if (typeof shape === 'string' || isTypeList(shape)) {
    const types = typeof shape === 'string' ? [shape] : shape;
    if (!types.some((type) => matches(value, type))) problems.push(`${path}: expected ${types.join('|')}, got ${typeOf(value)}`);
    return;
  }
  if ('list' in shape) {
    if (!Array.isArray(value)) return void problems.push(`${path}: expected array, got ${typeOf(value)}`);
    for (const [i, item] of value.entries()) checkField(item, shape.list, `${path}[${i}]`, problems);
    return;
  }
  if ('dict' in shape) {
    if (typeOf(value) !== 'object') return void problems.push(`${path}: expected object, got ${typeOf(value)}`);
    for (const [key, item] of Object.entries(value as object)) checkField(item, shape.dict, `${path}.${key}`, problems);
    return;
  }
  if (value === null && shape.nullable) return;
  if (typeOf(value) !== 'object') return void problems.push(`${path}: expected object, got ${typeOf(value)}`);
  checkShape(value as Record<string, unknown>, shape.record, path, problems);
}

function checkShape(value: Record<string, unknown>, shape: Shape, path: string, problems: string[]): void {
  for (const [key, field] of Object.entries(shape)) {
    const at = path === '' ? key : `${path}.${key}`;
    if (!(key in value)) problems.push(`${at}: missing`);
    else checkField(value[key], field, at, problems);
  }
}

/** Every way `value` falls short of `shape` ([] when it fits). */
export function shapeProblems(value: Record<string, unknown>, shape: Shape): string[] {
  const problems: string[] = [];
  checkShape(value, shape, '', problems);
  return problems;
}
