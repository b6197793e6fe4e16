/**
 * What the SQLite driver promises about group commit and its read connection, observed from
 * outside: COMMITs are counted in the WAL file, visibility through a second better-sqlite3
 * connection on the same file. No timings: every ordering is forced with gates.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Realm } from '@teamchat/core';
import { createSqliteStorage } from '@teamchat/core/sqlite';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { Mutex } from '../../packages/core/src/storage/mutex.js';
import { groupCommit } from '../../packages/core/src/storage/sqlite/group-commit.js';
import { err, ok, openRaw, type RawDatabase } from './core-deps.js';
import { gate, newRealm, newUser, seed, tick } from './fixtures.js';

const dir = mkdtempSync(join(tmpdir(), 'teamchat-group-commit-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;

const opened: { close(): unknown }[] = [];
afterEach(async () => {
  for (const handle of opened.splice(0).reverse()) await handle.close();
});

/** Batch bounds no test reaches, unless it sets its own: a batch's content never depends on timing. */
const UNBOUNDED = { maxOperations: 1000, maxMilliseconds: 3_600_000 };

/**
 * A driver on a new file, and a raw connection beside it that sees only what is committed.
 * Checkpoints stay in COMMIT (at 1000 pages, which no test reaches): the checkpointer's worker
 * would start the WAL over at moments of its own, and the tests count COMMITs in it.
 */
function open(batchLimits = UNBOUNDED) {
  const file = join(dir, `db${++files}.sqlite`);
  const storage = createSqliteStorage({ filename: file, batchLimits, checkpoints: 'in-commit' });
  const raw = openRaw(file, { readonly: true });
  opened.push(storage, raw);
  return { file, storage, raw };
}

/**
 * The number of COMMITs in the WAL file: its frames that end a transaction (a non-zero
 * "database size after commit" field) and carry the header's salts (older frames do not).
 */
function walCommits(file: string): number {
  const wal = readFileSync(`${file}-wal`);
  if (wal.length < 32) return 0;
  const pageSize = wal.readUInt32BE(8);
  const salts = [wal.readUInt32BE(16), wal.readUInt32BE(20)];
  let commits = 0;
  for (let at = 32; at + 24 + pageSize <= wal.length; at += 24 + pageSize) {
    if (wal.readUInt32BE(at + 8) !== salts[0] || wal.readUInt32BE(at + 12) !== salts[1]) break;
    if (wal.readUInt32BE(at + 4) !== 0) commits++;
  }
  return commits;
}

/** Whether the raw connection sees a committed realm with this subdomain. */
const visible = (raw: RawDatabase, subdomain: string) =>
  raw.prepare('SELECT 1 FROM realm WHERE subdomain = ?').all(subdomain).length === 1;

/** Realm subdomains the raw connection sees, of those given. */
const visibleOf = (raw: RawDatabase, subdomains: string[]) => subdomains.filter((s) => visible(raw, s));

describe('group commit', () => {
  it('transactions queued behind a running one commit together, in one COMMIT; a lone one commits alone', async () => {
    const { file, storage, raw } = open();
    await seed(storage);
    const before = walCommits(file);
    const hold = gate();
    const names = ['first', 'second', 'third', 'fourth', 'fifth'];
    const results = names.map((subdomain, i) =>
      storage.transaction(async (tx) => {
        await tx.realms.insert(newRealm({ subdomain }));
        if (i === 0) await hold.promise;
        return ok(subdomain);
      }),
    );
    await tick();
    expect(visibleOf(raw, names)).toEqual([]);
    hold.open();
    expect((await Promise.all(results)).map((r) => r._unsafeUnwrap())).toEqual(names);
    expect(visibleOf(raw, names)).toEqual(names);
    expect(walCommits(file) - before).toBe(1);

    // One at a time, each awaited: nothing to group, one COMMIT each.
    for (const subdomain of ['alone1', 'alone2']) await storage.transaction(async (tx) => ok(await tx.realms.insert(newRealm({ subdomain }))));
    expect(walCommits(file) - before).toBe(3);
  });

  it('a batch takes at most maxOperations transactions', async () => {
    const { file, storage } = open({ maxOperations: 3, maxMilliseconds: 3_600_000 });
    await seed(storage);
    const before = walCommits(file);
    const hold = gate();
    const results = Array.from({ length: 7 }, (_, i) =>
      storage.transaction(async (tx) => {
        await tx.realms.insert(newRealm());
        if (i === 0) await hold.promise;
        return ok(i);
      }),
    );
    hold.open();
    expect((await Promise.all(results)).map((r) => r._unsafeUnwrap())).toEqual([0, 1, 2, 3, 4, 5, 6]);
    // 3 + 3 + 1.
    expect(walCommits(file) - before).toBe(3);
  });

  it('a transaction that fails inside a batch (Err, throw, failed statement) rolls back alone', async () => {
    const { file, storage, raw } = open();
    const { realm, users: [user] } = await seed(storage, [{}]);
    const before = walCommits(file);
    const hold = gate();
    const boom = new Error('boom');
    const first = storage.transaction(async (tx) => {
      await tx.realms.insert(newRealm({ subdomain: 'kept1' }));
      await hold.promise;
      return ok('kept1');
    });
    const refused = storage.transaction(async (tx) => {
      await tx.realms.insert(newRealm({ subdomain: 'refused' }));
      await tx.users.update(realm.id, user!.id, { fullName: 'Refused' });
      return err('refused');
    });
    const thrown = storage.transaction(async (tx) => {
      await tx.realms.insert(newRealm({ subdomain: 'thrown' }));
      await tick();
      throw boom;
    });
    const failedStatement = storage.transaction(async (tx) => {
      await tx.realms.insert(newRealm({ subdomain: 'duplicate' }));
      // The same API key as the seeded user: the unique index refuses it.
      await tx.users.insert(newUser(realm.id, { apiKey: user!.apiKey }));
      return ok('never');
    });
    const last = storage.transaction(async (tx) => {
      await tx.realms.insert(newRealm({ subdomain: 'kept2' }));
      await tx.users.update(realm.id, user!.id, { fullName: 'Kept' });
      return ok('kept2');
    });
    hold.open();
    expect((await first)._unsafeUnwrap()).toBe('kept1');
    expect((await refused)._unsafeUnwrapErr()).toBe('refused');
    await expect(thrown).rejects.toBe(boom);
    await expect(failedStatement).rejects.toThrow(/UNIQUE/);
    expect((await last)._unsafeUnwrap()).toBe('kept2');

    expect(visibleOf(raw, ['kept1', 'refused', 'thrown', 'duplicate', 'kept2'])).toEqual(['kept1', 'kept2']);
    expect(await storage.read((tx) => tx.users.byId(realm.id, user!.id))).toEqual({ ...user, fullName: 'Kept' });
    expect(walCommits(file) - before).toBe(1);
  });

  it('when the first transaction of a batch fails, it rolls back alone and the others still commit together', async () => {
    const { file, storage, raw } = open();
    await seed(storage);
    for (const ending of ['err', 'throw'] as const) {
      const before = walCommits(file);
      const hold = gate();
      const first = storage.transaction(async (tx) => {
        await tx.realms.insert(newRealm({ subdomain: `first-${ending}` }));
        await hold.promise;
        if (ending === 'throw') throw new Error('first');
        return err('first');
      });
      const others = ['one', 'two'].map((name) =>
        storage.transaction(async (tx) => ok(await tx.realms.insert(newRealm({ subdomain: `${name}-${ending}` })))),
      );
      hold.open();
      if (ending === 'throw') await expect(first).rejects.toThrow('first');
      else expect((await first)._unsafeUnwrapErr()).toBe('first');
      for (const other of others) expect((await other).isOk()).toBe(true);
      expect(visibleOf(raw, [`first-${ending}`, `one-${ending}`, `two-${ending}`])).toEqual([`one-${ending}`, `two-${ending}`]);
      expect(walCommits(file) - before).toBe(1);
    }
  });

  it('a caller is answered only after the COMMIT that holds its write, and its later reads see it', async () => {
    const { storage, raw } = open();
    await seed(storage);
    const hold = gate();
    let answered = false;
    const seenWhenAnswered: boolean[] = [];
    const mine = storage
      .transaction(async (tx) => ok(await tx.realms.insert(newRealm({ subdomain: 'mine' }))))
      .then(async (result) => {
        answered = true;
        seenWhenAnswered.push(visible(raw, 'mine'));
        return storage.read((tx) => tx.realms.byId(result._unsafeUnwrap().id));
      });
    // A transaction queued behind it keeps the batch open: 'mine' has returned Ok, not committed.
    const blocker = storage.transaction(async () => {
      await hold.promise;
      return ok(undefined);
    });
    for (let i = 0; i < 3; i++) await tick();
    expect(answered).toBe(false);
    expect(visible(raw, 'mine')).toBe(false);
    hold.open();
    const readBack = (await mine);
    await blocker;
    expect(seenWhenAnswered).toEqual([true]);
    expect(readBack?.subdomain).toBe('mine');
  });

  it('after-commit callbacks run after the COMMIT, in call order, before any caller of the batch is answered; none for a rolled-back transaction', async () => {
    const { storage, raw } = open();
    await seed(storage);
    const hold = gate();
    const seen: string[] = [];
    const names = ['a', 'b', 'c', 'd'];
    const callback = (name: string) => () => seen.push(`${name} after commit sees ${visibleOf(raw, names).join(',')}`);
    const a = storage.transaction(async (tx) => {
      await tx.realms.insert(newRealm({ subdomain: 'a' }));
      tx.afterCommit(callback('a'));
      await hold.promise;
      return ok('a');
    });
    const b = storage.transaction(async (tx) => {
      await tx.realms.insert(newRealm({ subdomain: 'b' }));
      tx.afterCommit(callback('b'));
      return err('b');
    });
    const c = storage.transaction(async (tx) => {
      await tx.realms.insert(newRealm({ subdomain: 'c' }));
      tx.afterCommit(callback('c'));
      throw new Error('c');
    });
    const d = storage.transaction(async (tx) => {
      await tx.realms.insert(newRealm({ subdomain: 'd' }));
      tx.afterCommit(callback('d'));
      return ok('d');
    });
    const answers: Promise<unknown>[] = [a, b, d].map((p) => p.then((r) => seen.push(`answered ${r.isOk() ? r.value : r.error}`)));
    answers.push(c.catch(() => seen.push('answered c')));
    hold.open();
    await Promise.all(answers);
    expect(seen.slice(0, 2)).toEqual(['a after commit sees a,d', 'd after commit sees a,d']);
    expect(seen.slice(2).sort()).toEqual(['answered a', 'answered b', 'answered c', 'answered d']);
  });
});

describe('the read connection', () => {
  it('a read does not wait for a running write batch, and does not see its uncommitted rows', async () => {
    const { storage } = open();
    await seed(storage);
    const hold = gate();
    let written = false;
    const writing = storage.transaction(async (tx) => {
      await tx.realms.insert(newRealm({ subdomain: 'pending' }));
      await hold.promise;
      return ok(undefined);
    });
    void writing.then(() => (written = true));
    await tick();
    const subdomains = await storage.read(async (tx) => (await tx.realms.all()).map((r) => r.subdomain));
    expect(written).toBe(false);
    expect(subdomains).not.toContain('pending');
    hold.open();
    await writing;
    expect((await storage.read((tx) => tx.realms.all())).map((r) => r.subdomain)).toContain('pending');
  });

  it('close() waits for queued operations, refuses later ones and closes both connections', async () => {
    const { file, storage } = open();
    await seed(storage);
    const hold = gate();
    const writing = storage.transaction(async (tx) => {
      await hold.promise;
      return ok(await tx.realms.insert(newRealm({ subdomain: 'last' })));
    });
    const queued = storage.transaction(async (tx) => ok((await tx.realms.all()).length));
    const closing = storage.close();
    await expect(storage.read(async () => 'late')).rejects.toThrow(/close/);
    hold.open();
    await writing;
    expect((await queued)._unsafeUnwrap()).toBe(2);
    await closing;
    // The last connection to close checkpoints the WAL and deletes it: none was left open.
    expect(existsSync(`${file}-wal`)).toBe(false);
  });

  it('an in-memory database keeps one connection: a read waits for the running batch', async () => {
    const storage = createSqliteStorage();
    opened.push(storage);
    await seed(storage);
    const hold = gate();
    const order: string[] = [];
    const writing = storage.transaction(async (tx) => {
      await tx.realms.insert(newRealm({ subdomain: 'memory' }));
      await hold.promise;
      return ok(undefined);
    });
    void writing.then(() => order.push('write answered'));
    const reading = storage.read(async (tx) => {
      order.push('read runs');
      return (await tx.realms.all()).map((r) => r.subdomain);
    });
    await tick();
    expect(order).toEqual([]);
    hold.open();
    expect(await reading).toContain('memory');
    await writing;
    expect(order.sort()).toEqual(['read runs', 'write answered']);
  });
});

describe('groupCommit on a bare connection', () => {
  it('when the COMMIT fails, every transaction of the batch rejects and no after-commit callback runs', async () => {
    const db = openRaw(':memory:');
    opened.push(db);
    // A deferred foreign key is checked at COMMIT: an orphan makes the COMMIT itself fail.
    db.exec(`CREATE TABLE parent (id INTEGER PRIMARY KEY);
      CREATE TABLE child (id INTEGER PRIMARY KEY, parent_id INTEGER REFERENCES parent (id) DEFERRABLE INITIALLY DEFERRED)`);
    db.pragma('foreign_keys = ON');
    const commits = groupCommit(db as Parameters<typeof groupCommit>[0], new Mutex(), UNBOUNDED);
    const ran: string[] = [];
    const write = (sql: string, wait?: Promise<void>) =>
      commits.submit(async () => {
        db.prepare(sql).run();
        await wait;
        return { result: ok(sql), afterCommit: [() => ran.push(sql)] };
      });
    const count = () => db.prepare('SELECT count(*) AS n FROM parent').all();

    const hold = gate();
    const batch = [write('INSERT INTO parent VALUES (1)', hold.promise), write('INSERT INTO child VALUES (1, 99)'), write('INSERT INTO parent VALUES (2)')];
    hold.open();
    for (const settled of batch) await expect(settled).rejects.toThrow(/FOREIGN KEY/);
    expect(ran).toEqual([]);
    expect(count()).toEqual([{ n: 0 }]);

    // The connection is left usable: the next batch commits.
    expect((await write('INSERT INTO parent VALUES (3)'))._unsafeUnwrap()).toBe('INSERT INTO parent VALUES (3)');
    expect(ran).toEqual(['INSERT INTO parent VALUES (3)']);
    expect(count()).toEqual([{ n: 1 }]);
    await commits.drained();
  });

  it('a batch begins once beforeBatch has resolved; transactions submitted meanwhile join it', async () => {
    const db = openRaw(':memory:');
    opened.push(db);
    db.exec('CREATE TABLE t (name TEXT)');
    const hold = gate();
    let waits = 0;
    const beforeBatch = () => (waits++ === 0 ? hold.promise : undefined);
    const commits = groupCommit(db as Parameters<typeof groupCommit>[0], new Mutex(), UNBOUNDED, undefined, beforeBatch);
    const ran: string[] = [];
    const seenByFirst: string[][] = [];
    const write = (name: string) =>
      commits.submit(async () => {
        db.prepare('INSERT INTO t VALUES (?)').run(name);
        return { result: ok(name), afterCommit: [() => ran.push(name)] };
      });
    const count = () => db.prepare('SELECT count(*) AS n FROM t').all();

    const first = write('first').then((result) => {
      seenByFirst.push([...ran]);
      return result;
    });
    await tick();
    // Held before its BEGIN: nothing ran.
    expect(count()).toEqual([{ n: 0 }]);
    const second = write('second');
    hold.open();
    expect((await first)._unsafeUnwrap()).toBe('first');
    expect((await second)._unsafeUnwrap()).toBe('second');
    // One batch: both after-commit callbacks had run when the first caller was answered.
    expect(seenByFirst).toEqual([['first', 'second']]);
    expect(count()).toEqual([{ n: 2 }]);
    await commits.drained();
  });
});
