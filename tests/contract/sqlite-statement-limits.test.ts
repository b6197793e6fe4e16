/**
 * The SQLite statement cache prepares `LIMIT ?` as `LIMIT +?` (statements.ts, sqliteText), so
 * that SQLite does not compile the statement again at each run: the limit, now evaluated at run
 * time, must still bound the rows as the bound value says, run after run of one cached statement.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { TableMap } from '../../packages/core/src/storage/sqlite/columns.js';
import { sqliteText, statementCache } from '../../packages/core/src/storage/sqlite/statements.js';
import { openRaw } from './core-deps.js';

const dir = mkdtempSync(join(tmpdir(), 'teamchat-limits-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('bound LIMITs in the SQLite statement cache', () => {
  const db = openRaw(join(dir, 'limits.db'));
  db.exec('CREATE TABLE item (id INTEGER PRIMARY KEY, label TEXT NOT NULL)');
  const insert = db.prepare('INSERT INTO item (id, label) VALUES (?, ?)');
  for (let id = 1; id <= 10; id++) insert.run(id, `item ${id}`);
  const statements = statementCache(db as never);

  it('are spelled as run-time expressions, and only LIMIT parameters', () => {
    expect(sqliteText('SELECT id FROM item WHERE id > ? ORDER BY id LIMIT ?')).toBe('SELECT id FROM item WHERE id > ? ORDER BY id LIMIT +?');
    expect(sqliteText('SELECT id FROM (SELECT id FROM item LIMIT ?) LIMIT 1')).toBe('SELECT id FROM (SELECT id FROM item LIMIT +?) LIMIT 1');
  });

  for (const packed of [false, true]) {
    it(`bound the rows by the value of each run, one cached statement after another (${packed ? 'packed' : 'column by column'})`, async () => {
      const map: TableMap<{ id: number; label: string }> = { table: 'item', booleans: [], ...(packed ? { packed: true as const } : {}) };
      const page = async (after: number, limit: number) =>
        (await statements.all(map, 'SELECT id, label FROM item WHERE id > ? ORDER BY id DESC LIMIT ?', after, limit)).map((row) => row.id);
      expect(await page(0, 3)).toEqual([10, 9, 8]);
      expect(await page(0, 0)).toEqual([]);
      expect(await page(7, 5)).toEqual([10, 9, 8]);
      // A negative limit is none, as SQLite reads it.
      expect(await page(5, -1)).toEqual([10, 9, 8, 7, 6]);
      expect(await page(0, 1)).toEqual([10]);
      expect(() => statements.all(map, 'SELECT id, label FROM item WHERE id > ? ORDER BY id DESC LIMIT ?', 0, 'many')).toThrow(/mismatch/);
    });
  }
});
