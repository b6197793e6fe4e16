/**
 * Packed reads (TableMap.packed): rows fetched as one JSON array text each must decode to the
 * very records the column-by-column read gives, for every value a TEXT or INTEGER column holds,
 * in the statement's own order; a statement with any other column is refused when prepared.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { TableMap } from '../../packages/core/src/storage/sqlite/columns.js';
import { statementCache } from '../../packages/core/src/storage/sqlite/statements.js';
import { openRaw } from './core-deps.js';

interface Row {
  id: number;
  label: string | null;
  count: number | null;
  done: boolean;
  extra: unknown;
}

const dir = mkdtempSync(join(tmpdir(), 'teamchat-packed-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function openWithRows(name: string) {
  const db = openRaw(join(dir, name));
  db.exec('CREATE TABLE item (id INTEGER PRIMARY KEY, label TEXT, count INTEGER, done INTEGER NOT NULL, extra TEXT NOT NULL, weight REAL)');
  const labels = ['plain', 'a\u0000b', 'quote " and \\ backslash', '\u2028\u2029 separators', 'emoji 😀 and é', '\u0001\u001f controls', 'x'.repeat(20_000), '', null];
  const insert = db.prepare('INSERT INTO item (id, label, count, done, extra, weight) VALUES (?, ?, ?, ?, ?, ?)');
  labels.forEach((label, i) => {
    const count = [0, -1, Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER, null][i % 5];
    insert.run(100 - i, label, count, i % 2, i % 3 === 0 ? '{"nested":["a",1,null]}' : '[]', i / 3);
  });
  return db;
}

describe('packed SQLite reads', () => {
  const db = openWithRows('rows.db');
  const statements = statementCache(db as never);
  const map = (packed: boolean): TableMap<Row> => ({ table: 'item', booleans: ['done'], json: ['extra'], ...(packed ? { packed: true as const } : {}) });
  const sql = 'SELECT id, label, count, done, extra FROM item WHERE id IN (SELECT value FROM json_each(?)) ORDER BY id DESC';

  it('gives the records of the column-by-column read, in the statement order', async () => {
    const ids = JSON.stringify([92, 93, 94, 95, 96, 97, 98, 99, 100, 5]);
    // The same SQL text is cached with one map, so the unpacked read uses an equivalent text.
    const unpacked = await statements.all(map(false), `${sql} `, ids);
    const packed = await statements.all(map(true), sql, ids);
    expect(packed).toHaveLength(9);
    expect(packed.map((row) => row.id)).toEqual([100, 99, 98, 97, 96, 95, 94, 93, 92]);
    expect(packed).toEqual(unpacked);
    expect(JSON.stringify(packed)).toBe(JSON.stringify(unpacked));
  });

  it('answers an empty list when no row matches', async () => {
    expect(await statements.all(map(true), sql, '[1, 2]')).toEqual([]);
  });

  it('refuses a statement with a REAL column or an expression, whose values JSON would not give back exactly', () => {
    expect(() => statements.all(map(true), 'SELECT id, weight FROM item')).toThrow(/weight is REAL/);
    expect(() => statements.all(map(true), 'SELECT id, count + 1 AS more FROM item')).toThrow(/more is an expression/);
  });
});
