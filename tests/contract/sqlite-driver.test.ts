/** What only the SQLite driver promises: its pragmas on every open, migrations, foreign keys. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { UserPatch } from '@teamchat/core';
import { createSqliteStorage } from '@teamchat/core/sqlite';
import { afterAll, describe, expect, it } from 'vitest';
import { MIGRATIONS } from '../../packages/core/src/storage/sqlite/migrations.js';
import { ok, openRaw } from './core-deps.js';
import { commit, newMail, newUser, seed } from './fixtures.js';

const dir = mkdtempSync(join(tmpdir(), 'teamchat-sqlite-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;
const newFile = () => join(dir, `db${++files}.sqlite`);

const schemaOf = (filename: string) => {
  const raw = openRaw(filename, { readonly: true });
  try {
    return raw.prepare('SELECT type, name, sql FROM sqlite_master ORDER BY name').all();
  } finally {
    raw.close();
  }
};

describe('sqlite driver: opening a file', () => {
  it('sets WAL, synchronous = FULL and foreign keys on a new and on a reopened file', async () => {
    const file = newFile();
    for (let open = 0; open < 2; open++) {
      const storage = createSqliteStorage({ filename: file });
      expect(await storage.pragma('journal_mode')).toBe('wal');
      expect(await storage.pragma('synchronous')).toBe(2);
      expect(await storage.pragma('foreign_keys')).toBe(1);
      await storage.close();
    }
    // WAL is a property of the file: a connection that sets nothing still finds it.
    const raw = openRaw(file, { readonly: true });
    expect(raw.pragma('journal_mode', { simple: true })).toBe('wal');
    raw.close();
  });

  it("sets synchronous = NORMAL when asked, on a new and on a reopened file", async () => {
    const file = newFile();
    for (let open = 0; open < 2; open++) {
      const storage = createSqliteStorage({ filename: file, synchronous: 'normal' });
      expect(await storage.pragma('journal_mode')).toBe('wal');
      expect(await storage.pragma('synchronous')).toBe(1);
      await storage.close();
    }
    // The default comes back on the next open that does not ask.
    const storage = createSqliteStorage({ filename: file });
    expect(await storage.pragma('synchronous')).toBe(2);
    await storage.close();
  });

  it('applies the migrations once; reopening keeps data and schema and applies nothing again', async () => {
    const file = newFile();
    const first = createSqliteStorage({ filename: file });
    expect(await first.pragma('user_version')).toBe(MIGRATIONS.length);
    const { realm, users } = await seed(first, [{}, {}]);
    await first.close();
    const schema = schemaOf(file);

    for (let open = 0; open < 2; open++) {
      const again = createSqliteStorage({ filename: file });
      expect(await again.pragma('user_version')).toBe(MIGRATIONS.length);
      expect(await again.read((tx) => tx.users.list(realm.id))).toEqual(users);
      await again.close();
    }
    expect(schemaOf(file)).toEqual(schema);
  });

  it('refuses a file whose schema is newer than its migrations, and leaves it alone', () => {
    const file = newFile();
    const raw = openRaw(file);
    raw.pragma(`user_version = ${MIGRATIONS.length + 1}`);
    raw.close();
    expect(() => createSqliteStorage({ filename: file })).toThrow(/newer/);
    const check = openRaw(file, { readonly: true });
    expect(check.pragma('user_version', { simple: true })).toBe(MIGRATIONS.length + 1);
    check.close();
  });

  it('the pragma diagnostic only reads', async () => {
    const storage = createSqliteStorage();
    await expect(storage.pragma('synchronous = OFF')).rejects.toThrow(/pragma name/);
    expect(await storage.pragma('synchronous')).toBe(2);
    await storage.close();
  });
});

describe('sqlite driver: integrity', () => {
  it('enforces foreign keys and rolls the transaction back', async () => {
    const storage = createSqliteStorage();
    const { realm, users: [user] } = await seed(storage, [{}]);
    const missing = realm.id + 1000;
    const attempts = [
      () => storage.transaction(async (tx) => ok(await tx.users.insert(newUser(missing)))),
      () => storage.transaction(async (tx) => ok(await tx.users.insert(newUser(realm.id, { isBot: true, botType: 1, botOwnerId: 999_999 })))),
      () => storage.transaction(async (tx) => ok(await tx.outbox.insert(newMail(missing)))),
      () =>
        storage.transaction(async (tx) => {
          await tx.users.update(realm.id, user!.id, { fullName: 'Before the failure' });
          return ok(await tx.users.update(realm.id, user!.id, { botOwnerId: 999_999 }));
        }),
    ];
    for (const attempt of attempts) await expect(attempt()).rejects.toThrow(/FOREIGN KEY/);
    expect(await storage.read((tx) => tx.users.list(realm.id))).toEqual([user]);
    expect(await storage.read((tx) => tx.outbox.pending())).toEqual([]);
    await storage.close();
  });

  it('keeps updating correctly past the prepared-statement cache size', async () => {
    const storage = createSqliteStorage();
    const { realm, users: [user] } = await seed(storage, [{}]);
    // 300 different column sets, so 300 different UPDATE texts.
    const fields = ['fullName', 'timezone', 'avatarVersion', 'role', 'isActive', 'canCreateUsers', 'awaitingFirstLogin', 'isImportedStub', 'emailAddressVisibility'] as const;
    const values = { fullName: 'N', timezone: 'UTC', avatarVersion: 5, role: 300, isActive: true, canCreateUsers: true, awaitingFirstLogin: true, isImportedStub: true, emailAddressVisibility: 2 };
    let expected = { ...user! };
    for (let mask = 1; mask <= 300; mask++) {
      const patch: Record<string, unknown> = {};
      fields.forEach((field, bit) => {
        if (mask & (1 << bit)) patch[field] = field === 'fullName' ? `Name ${mask}` : values[field];
      });
      await commit(storage, (tx) => tx.users.update(realm.id, user!.id, patch));
      expected = { ...expected, ...patch };
      expect(await storage.read((tx) => tx.users.byId(realm.id, user!.id))).toEqual(expected);
    }
    await storage.close();
  });
});
