/** The user-status store of the storage contract (user-status-types.ts), run by storage.case.ts for every driver. */
import type { Storage, UserStatusChange } from '@teamchat/core';
import { describe, expect, it } from 'vitest';
import { commit, newRealm, newUser, seed } from './fixtures.js';

export function describeUserStatusStore(storage: () => Storage): void {
  describe('userStatuses', () => {
    it('creates a row on the first change, keeps the fields a change leaves out, lists by user, stays within realm', async () => {
      const { realm, users: [a, b] } = await seed(storage(), [{}, {}]);
      const set = (userId: number, change: UserStatusChange, at: number, realmId = realm.id) =>
        commit(storage(), (tx) => tx.userStatuses.set(realmId, userId, change, at));
      const empty = { statusText: '', emojiName: '', emojiCode: '', reactionType: 'unicode_emoji' } as const;

      expect(await storage().read((tx) => tx.userStatuses.get(realm.id, a!.id))).toBeUndefined();
      // A change that sets nothing still creates the (empty) row and stamps it.
      expect(await set(b!.id, {}, 50)).toEqual({ userId: b!.id, ...empty, timestamp: 50 });
      expect(await set(a!.id, { statusText: 'on vacation' }, 100)).toEqual({ userId: a!.id, ...empty, statusText: 'on vacation', timestamp: 100 });
      const car = { emojiName: 'car', emojiCode: '1f697', reactionType: 'unicode_emoji' } as const;
      expect(await set(a!.id, car, 200)).toEqual({ userId: a!.id, statusText: 'on vacation', ...car, timestamp: 200 });
      expect(await set(a!.id, { statusText: '' }, 300)).toEqual({ userId: a!.id, ...car, statusText: '', timestamp: 300 });
      const custom = { emojiName: 'party', emojiCode: '7', reactionType: 'realm_emoji' } as const;
      expect(await set(a!.id, custom, 400)).toMatchObject(custom);

      await storage().read(async (tx) => {
        expect((await tx.userStatuses.list(realm.id)).map((r) => [r.userId, r.emojiName, r.timestamp])).toEqual([
          [a!.id, 'party', 400],
          [b!.id, '', 50],
        ]);
        expect(await tx.userStatuses.get(realm.id, a!.id)).toEqual({ userId: a!.id, statusText: '', ...custom, timestamp: 400 });
        expect(await tx.userStatuses.list(realm.id + 1000)).toEqual([]);
        expect(await tx.userStatuses.get(realm.id + 1000, a!.id)).toBeUndefined();
      });

      // Another realm's user gets nothing written, and names nothing of this realm.
      const other = await commit(storage(), (tx) => tx.realms.insert(newRealm()));
      const stranger = await commit(storage(), (tx) => tx.users.insert(newUser(other.id)));
      expect(await set(a!.id, { statusText: 'hijacked' }, 500, other.id)).toBeUndefined();
      expect(await set(stranger.id, { statusText: 'mine' }, 500)).toBeUndefined();
      await storage().read(async (tx) => {
        expect((await tx.userStatuses.get(realm.id, a!.id))!.statusText).toBe('');
        expect(await tx.userStatuses.list(other.id)).toEqual([]);
      });
    });
  });
}
