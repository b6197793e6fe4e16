/** Migration 2 (personal settings) on a database created before it. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSqliteStorage } from '@teamchat/core/sqlite';
import { afterAll, describe, expect, it } from 'vitest';
import { MIGRATIONS } from '../../packages/core/src/storage/sqlite/migrations.js';
import { openRaw } from './core-deps.js';
import { commit, seed } from './fixtures.js';

const dir = mkdtempSync(join(tmpdir(), 'teamchat-settings-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('sqlite driver: the settings migration', () => {
  it('gives the users of a version-1 file empty settings and keeps everything else', async () => {
    const file = join(dir, 'v1.sqlite');
    const raw = openRaw(file);
    raw.exec(MIGRATIONS[0]!);
    raw.pragma('user_version = 1');
    raw.exec(`
      INSERT INTO realm (id, subdomain, name, url, uuid, date_created) VALUES (1, '', 'Old', 'http://old.example.com', 'u', 1);
      INSERT INTO user (id, realm_id, delivery_email, full_name, api_key, role, timezone, date_joined, email_address_visibility)
        VALUES (1, 1, 'old@example.com', 'Old Timer', 'k1', 100, 'Europe/Paris', '2020-01-01T00:00:00.000000+00:00', 3);
    `);
    raw.close();

    const storage = createSqliteStorage({ filename: file });
    expect(await storage.pragma('user_version')).toBe(MIGRATIONS.length);
    const user = await storage.read((tx) => tx.users.byId(1, 1));
    expect(user).toMatchObject({ fullName: 'Old Timer', timezone: 'Europe/Paris', emailAddressVisibility: 3, settings: {} });
    await commit(storage, (tx) => tx.users.update(1, 1, { settings: { enter_sends: true } }));
    expect((await storage.read((tx) => tx.users.byId(1, 1)))!.settings).toEqual({ enter_sends: true });
    await storage.close();
  });

  it('refuses settings that are not a JSON object', async () => {
    const file = join(dir, 'check.sqlite');
    const storage = createSqliteStorage({ filename: file });
    const { realm } = await seed(storage);
    await storage.close();
    const raw = openRaw(file);
    const insert = (settings: string) => () =>
      raw
        .prepare(
          `INSERT INTO user (realm_id, delivery_email, full_name, api_key, role, date_joined, settings)
           VALUES (?, ?, 'X', ?, 400, '2020-01-01T00:00:00.000000+00:00', ?)`,
        )
        .run(realm.id, `${settings.length}@example.com`, `key-${settings.length}`, settings);
    expect(insert('not json')).toThrow();
    expect(insert('[1,2]')).toThrow();
    expect(insert('{"enter_sends":true}')).not.toThrow();
    raw.close();
  });
});
