/** The presence store of the storage contract (presence-types.ts), run by storage.case.ts for every driver. */
import type { Storage, UserPresence } from '@teamchat/core';
import { describe, expect, it } from 'vitest';
import { commit, seed } from './fixtures.js';

export function describePresenceStore(storage: () => Storage): void {
  describe('presence', () => {
    it('saves rows and the sequence, replaces a user’s row, and never lowers the sequence', async () => {
      const { realm, users } = await seed(storage(), [{}, {}]);
      const [a, b] = users as [NonNullable<(typeof users)[0]>, NonNullable<(typeof users)[0]>];
      await storage().read(async (tx) => {
        expect(await tx.presence.list(realm.id)).toEqual([]);
        expect(await tx.presence.lastUpdateId(realm.id)).toBe(0);
      });
      const first: UserPresence[] = [
        { userId: b.id, lastActiveTime: null, lastConnectedTime: 1000, lastUpdateId: 2 },
        { userId: a.id, lastActiveTime: 990, lastConnectedTime: 995, lastUpdateId: 1 },
      ];
      await commit(storage(), (tx) => tx.presence.save(realm.id, first, 2));
      await commit(storage(), (tx) => tx.presence.save(realm.id, [{ userId: a.id, lastActiveTime: 1100, lastConnectedTime: 1100, lastUpdateId: 3 }], 3));
      // A stale flush (lower sequence) still writes its rows but leaves the sequence alone.
      await commit(storage(), (tx) => tx.presence.save(realm.id, [], 1));
      await storage().read(async (tx) => {
        expect(await tx.presence.list(realm.id)).toEqual([
          { userId: a.id, lastActiveTime: 1100, lastConnectedTime: 1100, lastUpdateId: 3 },
          { userId: b.id, lastActiveTime: null, lastConnectedTime: 1000, lastUpdateId: 2 },
        ]);
        expect(await tx.presence.lastUpdateId(realm.id)).toBe(3);
      });
    });

    it('keeps realms apart: rows for another realm’s or an unknown user are skipped', async () => {
      const one = await seed(storage(), [{}]);
      const two = await seed(storage(), [{}]);
      const mine = one.users[0]!;
      const theirs = two.users[0]!;
      const row = (userId: number): UserPresence => ({ userId, lastActiveTime: 5, lastConnectedTime: 6, lastUpdateId: 1 });
      await commit(storage(), (tx) => tx.presence.save(one.realm.id, [row(mine.id), row(theirs.id), row(theirs.id + 1000)], 1));
      await commit(storage(), (tx) => tx.presence.save(one.realm.id + 1000, [row(mine.id)], 9));
      await storage().read(async (tx) => {
        expect(await tx.presence.list(one.realm.id)).toEqual([row(mine.id)]);
        expect(await tx.presence.list(two.realm.id)).toEqual([]);
        expect(await tx.presence.lastUpdateId(two.realm.id)).toBe(0);
        expect(await tx.presence.lastUpdateId(one.realm.id + 1000)).toBe(0);
      });
    });

    it('lists given users’ rows and the rows changed after a sequence value, of the realm only', async () => {
      const one = await seed(storage(), [{}, {}, {}]);
      const two = await seed(storage(), [{}]);
      const [a, b, c] = one.users as [NonNullable<(typeof one.users)[0]>, NonNullable<(typeof one.users)[0]>, NonNullable<(typeof one.users)[0]>];
      const theirs = two.users[0]!;
      const row = (userId: number, lastUpdateId: number): UserPresence => ({ userId, lastActiveTime: null, lastConnectedTime: 100 + lastUpdateId, lastUpdateId });
      await commit(storage(), (tx) => tx.presence.save(one.realm.id, [row(c.id, 1), row(a.id, 2), row(b.id, 3)], 3));
      await commit(storage(), (tx) => tx.presence.save(two.realm.id, [row(theirs.id, 7)], 7));
      await storage().read(async (tx) => {
        expect(await tx.presence.listUsers(one.realm.id, [b.id, a.id, theirs.id, a.id + 1000])).toEqual([row(a.id, 2), row(b.id, 3)]);
        expect(await tx.presence.listUsers(one.realm.id, [])).toEqual([]);
        expect(await tx.presence.listChanged(one.realm.id, 1)).toEqual([row(a.id, 2), row(b.id, 3)]);
        expect(await tx.presence.listChanged(one.realm.id, 0)).toEqual([row(a.id, 2), row(b.id, 3), row(c.id, 1)]);
        expect(await tx.presence.listChanged(one.realm.id, 3)).toEqual([]);
        expect(await tx.presence.listChanged(two.realm.id, 0)).toEqual([row(theirs.id, 7)]);
      });
    });

    it('refuses save inside read()', async () => {
      const { realm } = await seed(storage());
      await expect(storage().read((tx) => tx.presence.save(realm.id, [], 1))).rejects.toThrow(/cannot run inside read/);
    });
  });
}
