/** The storage contract against the SQLite driver, in memory and in a file. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSqliteStorage } from '@teamchat/core/sqlite';
import { afterAll } from 'vitest';
import { testStorageDriver } from './storage.case.js';

testStorageDriver('sqlite :memory:', () => createSqliteStorage());

const dir = mkdtempSync(join(tmpdir(), 'teamchat-contract-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;
testStorageDriver('sqlite file', () => createSqliteStorage({ filename: join(dir, `db${++files}.sqlite`) }));

// What `teamchat serve` runs: the same contract without the nested-call check's promise hook.
testStorageDriver('sqlite file, nested-call check off', () => createSqliteStorage({ filename: join(dir, `db${++files}.sqlite`), detectNestedCalls: false }), {
  reason: 'detectNestedCalls: false turns that check off on purpose; the server never nests storage calls',
  tests: ['an operation started inside a callback rejects instead of waiting forever'],
});
