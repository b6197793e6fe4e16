/**
 * The SQLite driver's WAL checkpointer (checkpointer.ts): a worker thread copies the WAL into
 * the database file, the WAL stays bounded under writes and is emptied once they stop, reads
 * see every acknowledged write throughout, and close() leaves the whole database in the file.
 */
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSqliteStorage, type SqliteStorage } from '@teamchat/core/sqlite';
import { afterAll, describe, expect, it } from 'vitest';
import { openRaw } from './core-deps.js';
import { commit, newMail, seed } from './fixtures.js';

const dir = mkdtempSync(join(tmpdir(), 'teamchat-checkpointer-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;
const newFile = () => join(dir, `db${++files}.sqlite`);
const walSize = (file: string) => (existsSync(`${file}-wal`) ? statSync(`${file}-wal`).size : 0);
/** About 2 KB per row, so that each write adds a few pages to the WAL. */
const BODY = 'x'.repeat(2000);

/** Writes `count` outbox rows, `inFlight` transactions at a time; calls `each` after each acknowledgment. */
async function writeRows(storage: SqliteStorage, realmId: number, count: number, inFlight: number, each: () => void | Promise<void> = () => {}) {
  let next = 0;
  const writer = async () => {
    while (next < count) {
      const n = next++;
      await commit(storage, (tx) => tx.outbox.insert(newMail(realmId, { subject: String(n), body: BODY })));
      await each();
    }
  };
  await Promise.all(Array.from({ length: inFlight }, writer));
}

async function until(condition: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('sqlite driver: WAL checkpoints from a worker thread', () => {
  it('turns SQLite automatic checkpoints off on a file, and leaves them to SQLite with checkpoints: in-commit', async () => {
    const background = createSqliteStorage({ filename: newFile() });
    const inCommit = createSqliteStorage({ filename: newFile(), checkpoints: 'in-commit' });
    try {
      expect(await background.pragma('wal_autocheckpoint')).toBe(0);
      expect(await inCommit.pragma('wal_autocheckpoint')).toBe(1000);
    } finally {
      await Promise.all([background.close(), inCommit.close()]);
    }
  });

  it('keeps the WAL bounded under steady writes, copies it into the file, and empties it once writes stop', { timeout: 60_000 }, async () => {
    const file = newFile();
    const limitPages = 100;
    const storage = createSqliteStorage({ filename: file, checkpoints: { intervalMs: 20, limitPages } });
    try {
      const { realm } = await seed(storage);
      const rows = 2000;
      let largest = 0;
      // One transaction at a time: each checkpoint (which ends with an fsync) ends after the
      // next commit has added frames, so the writer never starts the WAL over by itself; the
      // limit is what bounds it.
      await writeRows(storage, realm.id, rows, 1, () => {
        largest = Math.max(largest, walSize(file));
      });
      // Unbounded, these writes make a WAL of over 20 MB (measured: 21.5 MB);
      // bounded, it holds the limit plus what is written while the worker catches up.
      expect(largest).toBeLessThan(8 * 1024 * 1024);
      expect(largest).toBeGreaterThan(0);
      // The rows reached the database file itself, not only the WAL.
      expect(statSync(file).size).toBeGreaterThan(rows * BODY.length);
      await until(() => walSize(file) === 0);
      expect(await storage.read((tx) => tx.outbox.list(realm.id))).toHaveLength(rows);
    } finally {
      await storage.close();
    }
  });

  it('lets reads see every acknowledged write while checkpoints run', { timeout: 60_000 }, async () => {
    const file = newFile();
    const storage = createSqliteStorage({ filename: file, checkpoints: { intervalMs: 1, limitPages: 50 } });
    try {
      const { realm } = await seed(storage);
      let acknowledged = 0;
      const stale: number[] = [];
      await writeRows(storage, realm.id, 600, 4, async () => {
        const seenAtLeast = ++acknowledged;
        const seen = (await storage.read((tx) => tx.outbox.list(realm.id))).length;
        if (seen < seenAtLeast) stale.push(seenAtLeast);
      });
      expect(stale).toEqual([]);
      expect(await storage.read((tx) => tx.outbox.list(realm.id))).toHaveLength(600);
    } finally {
      await storage.close();
    }
  });

  it('gives checkpoints back to SQLite, and says so, when the worker fails', async () => {
    const file = newFile();
    const errors: string[] = [];
    const logger = { error: (_: object, message?: string) => void errors.push(message ?? ''), warn: () => {}, info: () => {}, debug: () => {} };
    const storage = createSqliteStorage({ filename: file, logger });
    try {
      // The worker opens the file by name once it has started: gone by then, it cannot.
      rmSync(file);
      await until(() => errors.length > 0);
      expect(errors).toEqual(['storage: the WAL checkpointer stopped; checkpoints are back in COMMIT']);
      expect(await storage.pragma('wal_autocheckpoint')).toBe(1000);
    } finally {
      await storage.close();
    }
  });

  it('on close, stops the worker and leaves the whole database in the file, with no WAL beside it', async () => {
    const file = newFile();
    const storage = createSqliteStorage({ filename: file, checkpoints: { intervalMs: 60_000, limitPages: 1_000_000 } });
    const { realm } = await seed(storage);
    await writeRows(storage, realm.id, 200, 4);
    // The worker's first turn is a minute away: everything is still in the WAL.
    expect(walSize(file)).toBeGreaterThan(0);
    await storage.close();
    expect(existsSync(`${file}-wal`)).toBe(false);
    const raw = openRaw(file, { readonly: true });
    try {
      expect(raw.prepare('SELECT count(*) AS n FROM outbox').all()).toEqual([{ n: 200 }]);
    } finally {
      raw.close();
    }
  });
});
