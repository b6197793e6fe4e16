/** The muted-users store of the storage contract (muted-user-types.ts), run by storage.case.ts for every driver. */
import type { Storage } from '@teamchat/core';
import { describe, expect, it } from 'vitest';
import { commit, newRealm, newUser, seed } from './fixtures.js';

export function describeMutedUserStore(storage: () => Storage): void {
  describe('mutedUsers', () => {
    it('adds, lists in mute order, finds muters, removes; refuses self, repeats and other realms', async () => {
      const { realm, users: [a, b, c, d] } = await seed(storage(), [{}, {}, {}, { isActive: false }]);
      const add = (userId: number, mutedId: number, at: number, realmId = realm.id) =>
        commit(storage(), (tx) => tx.mutedUsers.add(realmId, userId, mutedId, at));
      const remove = (userId: number, mutedId: number, realmId = realm.id) => commit(storage(), (tx) => tx.mutedUsers.remove(realmId, userId, mutedId));

      expect(await add(a!.id, c!.id, 100)).toBe(true);
      expect(await add(a!.id, b!.id, 200)).toBe(true);
      // Deactivated users may be muted.
      expect(await add(a!.id, d!.id, 300)).toBe(true);
      expect(await add(b!.id, c!.id, 400)).toBe(true);
      expect(await add(a!.id, c!.id, 500)).toBe(false);
      expect(await add(a!.id, a!.id, 500)).toBe(false);

      await storage().read(async (tx) => {
        expect(await tx.mutedUsers.list(realm.id, a!.id)).toEqual([
          { mutedUserId: c!.id, dateMuted: 100 },
          { mutedUserId: b!.id, dateMuted: 200 },
          { mutedUserId: d!.id, dateMuted: 300 },
        ]);
        expect(await tx.mutedUsers.list(realm.id, c!.id)).toEqual([]);
        expect(await tx.mutedUsers.mutersOf(realm.id, c!.id)).toEqual([a!.id, b!.id]);
        expect(await tx.mutedUsers.mutersOf(realm.id, c!.id, [b!.id, d!.id])).toEqual([b!.id]);
        expect(await tx.mutedUsers.mutersOf(realm.id, c!.id, [])).toEqual([]);
        expect(await tx.mutedUsers.list(realm.id + 1000, a!.id)).toEqual([]);
        expect(await tx.mutedUsers.mutersOf(realm.id + 1000, c!.id)).toEqual([]);
      });

      expect(await remove(a!.id, b!.id)).toBe(true);
      expect(await remove(a!.id, b!.id)).toBe(false);
      expect(await remove(c!.id, a!.id)).toBe(false);

      // Users of another realm: nothing is written or removed across realms.
      const other = await commit(storage(), (tx) => tx.realms.insert(newRealm()));
      const stranger = await commit(storage(), (tx) => tx.users.insert(newUser(other.id)));
      expect(await add(a!.id, stranger.id, 600)).toBe(false);
      expect(await add(stranger.id, a!.id, 600, other.id)).toBe(false);
      expect(await add(a!.id, b!.id, 600, other.id)).toBe(false);
      expect(await remove(a!.id, c!.id, other.id)).toBe(false);
      await storage().read(async (tx) => {
        expect((await tx.mutedUsers.list(realm.id, a!.id)).map((m) => m.mutedUserId)).toEqual([c!.id, d!.id]);
        expect(await tx.mutedUsers.list(other.id, stranger.id)).toEqual([]);
      });
    });

    it('of two concurrent mutes of one user, exactly one is recorded', async () => {
      const { realm, users: [a, b] } = await seed(storage(), [{}, {}]);
      const results = await Promise.all([1, 2].map((n) => commit(storage(), (tx) => tx.mutedUsers.add(realm.id, a!.id, b!.id, n))));
      expect(results.filter(Boolean)).toHaveLength(1);
      expect(await storage().read((tx) => tx.mutedUsers.list(realm.id, a!.id))).toHaveLength(1);
    });
  });
}
