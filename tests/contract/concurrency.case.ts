/**
 * Race semantics under load, for every driver: many operations in flight at once, each awaiting
 * between its statements, must behave as if they ran one at a time (no lost updates, no dirty
 * reads, no statements of two operations interleaved, consistent read snapshots).
 */
import type { Storage, Tx, User } from '@teamchat/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { err, ok } from './core-deps.js';
import { seed, tick } from './fixtures.js';
import type { StorageFactory } from './storage.case.js';

const N = 200;
/** Values no committed state ever holds: only a dirty read could observe one. */
const POISON = 1_000_000;

/** Alternates the kinds of pause a real callback makes: a timer, a resolved promise, a microtask. */
const pause = (i: number) => (i % 3 === 0 ? tick() : i % 3 === 1 ? Promise.resolve() : new Promise<void>(queueMicrotask));

export function testStorageConcurrency(name: string, factory: StorageFactory): void {
  describe(`storage concurrency: ${name}`, () => {
    let storage: Storage;
    let realmId: number;
    let counter: User;
    let from: User;
    let to: User;
    beforeEach(async () => {
      storage = await factory();
      const seeded = await seed(storage, [{ avatarVersion: 0 }, { avatarVersion: 1000 }, { avatarVersion: 0 }]);
      realmId = seeded.realm.id;
      [counter, from, to] = seeded.users as [User, User, User];
    });
    afterEach(() => storage.close());

    const version = async (tx: Tx, user: User) => (await tx.users.byId(realmId, user.id))!.avatarVersion;

    it(`${N} concurrent read-modify-write transactions lose no update`, async () => {
      const results = await Promise.all(
        Array.from({ length: N }, (_, i) =>
          storage.transaction(async (tx) => {
            const seen = await version(tx, counter);
            await pause(i);
            await tx.users.update(realmId, counter.id, { avatarVersion: seen + 1 });
            await pause(i + 1);
            return ok(seen);
          }),
        ),
      );
      expect(await storage.read((tx) => version(tx, counter))).toBe(N);
      // Each transaction saw a distinct value: they ran as if one after another.
      const seen = results.map((r) => r._unsafeUnwrap()).sort((a, b) => a - b);
      expect(seen).toEqual(Array.from({ length: N }, (_, i) => i));
    });

    it('writes of transactions that end in Err or throw are never seen, and never kept', async () => {
      const observed: number[] = [];
      const work = Array.from({ length: N }, (_, i) => {
        switch (i % 4) {
          case 0: // commits an increment
            return storage.transaction(async (tx) => {
              const seen = await version(tx, counter);
              await pause(i);
              await tx.users.update(realmId, counter.id, { avatarVersion: seen + 1 });
              return ok('committed');
            });
          case 1: // writes poison, waits, then fails
            return storage.transaction(async (tx) => {
              await tx.users.update(realmId, counter.id, { avatarVersion: POISON + i });
              await pause(i);
              return err('refused');
            });
          case 2: // writes poison, waits, then throws
            return storage
              .transaction(async (tx) => {
                await tx.users.update(realmId, counter.id, { avatarVersion: POISON + i });
                await pause(i);
                throw new Error('crashed');
              })
              .catch(() => 'threw');
          default: // reads twice with a pause between
            return storage.read(async (tx) => {
              observed.push(await version(tx, counter));
              await pause(i);
              observed.push(await version(tx, counter));
              return 'read';
            });
        }
      });
      const outcomes = await Promise.all(work);
      expect(outcomes.filter((o) => typeof o === 'object' && o.isErr())).toHaveLength(N / 4);
      expect(outcomes.filter((o) => o === 'threw')).toHaveLength(N / 4);
      expect(observed.filter((v) => v >= POISON)).toEqual([]);
      expect(await storage.read((tx) => version(tx, counter))).toBe(N / 4);
    });

    it('no statement of another operation runs between two statements of a callback', async () => {
      const intrusions: string[] = [];
      await Promise.all(
        Array.from({ length: N }, (_, i) =>
          storage.transaction(async (tx) => {
            const mark = `writer ${i}`;
            await tx.users.update(realmId, counter.id, { fullName: mark });
            await pause(i);
            const now = (await tx.users.byId(realmId, counter.id))!.fullName;
            if (now !== mark) intrusions.push(`${mark} found ${now}`);
            return ok(undefined);
          }),
        ),
      );
      expect(intrusions).toEqual([]);
    });

    it('reads see a consistent snapshot while transfers are in flight', async () => {
      const total = 1000;
      const sums: number[] = [];
      await Promise.all(
        Array.from({ length: N }, (_, i) =>
          i % 2 === 0
            ? storage.transaction(async (tx) => {
                // Move one unit between two rows, pausing between the two writes.
                const a = await version(tx, from);
                await tx.users.update(realmId, from.id, { avatarVersion: a - 1 });
                await pause(i);
                const b = await version(tx, to);
                await tx.users.update(realmId, to.id, { avatarVersion: b + 1 });
                return ok(undefined);
              })
            : storage.read(async (tx) => {
                const a = await version(tx, from);
                await pause(i);
                sums.push(a + (await version(tx, to)));
              }),
        ),
      );
      expect(sums).toHaveLength(N / 2);
      expect(new Set(sums)).toEqual(new Set([total]));
      expect(await storage.read(async (tx) => [await version(tx, from), await version(tx, to)])).toEqual([
        total - N / 2,
        N / 2,
      ]);
    });
  });
}
