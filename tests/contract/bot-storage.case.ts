/** The bot storage store of the storage contract (bot-storage-types.ts), run by storage.case.ts for every driver. */
import type { Storage } from '@teamchat/core';
import { describe, expect, it } from 'vitest';
import { commit, seed } from './fixtures.js';

export function describeBotStorageStore(storage: () => Storage): void {
  describe('bot storage', () => {
    it('puts, reads by key, sizes and removes one user’s entries, apart from other users and realms', async () => {
      const { realm, users } = await seed(storage(), [{ deliveryEmail: 'bot-a@example.com' }, { deliveryEmail: 'bot-b@example.com' }]);
      const [user, other] = users as [(typeof users)[0], (typeof users)[0]];
      const read = (keys?: string[], realmId = realm.id, userId = user.id) => storage().read((tx) => tx.botStorage.entries(realmId, userId, keys));
      await commit(storage(), (tx) => tx.botStorage.put(realm.id, user.id, [['b', '2'], ['a', 'één']]));
      await commit(storage(), (tx) => tx.botStorage.put(realm.id, other.id, [['a', 'theirs']]));
      await commit(storage(), (tx) => tx.botStorage.put(realm.id, user.id, [['b', 'two']]));
      expect(await read()).toEqual([['a', 'één'], ['b', 'two']]);
      expect(await read(['b', 'missing', 'b'])).toEqual([['b', 'two']]);
      expect(await read(undefined, realm.id + 1000)).toEqual([]);
      // Characters, not bytes: 'a' + 'één' + 'b' + 'two'.
      expect(await storage().read((tx) => tx.botStorage.size(realm.id, user.id))).toBe(8);
      expect(await commit(storage(), (tx) => tx.botStorage.remove(realm.id + 1000, user.id, ['a']))).toBe(0);
      expect(await commit(storage(), (tx) => tx.botStorage.remove(realm.id, user.id, ['a', 'missing']))).toBe(1);
      expect(await commit(storage(), (tx) => tx.botStorage.remove(realm.id, user.id))).toBe(1);
      expect(await read()).toEqual([]);
      expect(await read(undefined, realm.id, other.id)).toEqual([['a', 'theirs']]);
    });
  });
}
