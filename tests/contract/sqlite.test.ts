/** The storage contract against the SQLite driver, in memory and in a file. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSqliteStorage } from '@teamchat/core';
import { afterAll } from 'vitest';
import { testStorageDriver } from './storage.case.js';

testStorageDriver('sqlite :memory:', () => createSqliteStorage());

const dir = mkdtempSync(join(tmpdir(), 'teamchat-contract-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;
testStorageDriver('sqlite file', () => createSqliteStorage({ filename: join(dir, `db${++files}.sqlite`) }));
