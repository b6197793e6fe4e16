/** The alert-word store of the storage contract (alert-word-types.ts), run by storage.case.ts for every driver. */
import type { Storage } from '@teamchat/core';
import { describe, expect, it } from 'vitest';
import { commit, seed } from './fixtures.js';

export function describeAlertWordStore(storage: () => Storage): void {
  describe('alertWords', () => {
    it('adds in order, ignores case duplicates, removes ignoring case, and stays within user and realm', async () => {
      const { realm, users: [a, b] } = await seed(storage(), [{}, {}]);
      await commit(storage(), (tx) => tx.alertWords.add(realm.id, a!.id, ['Soup', 'ÉCLAIR', 'soup']));
      await commit(storage(), (tx) => tx.alertWords.add(realm.id, a!.id, ['éclair', 'bread']));
      await commit(storage(), (tx) => tx.alertWords.add(realm.id, b!.id, ['soup']));
      // A user of another realm (or an unknown user) gets nothing written.
      await commit(storage(), (tx) => tx.alertWords.add(realm.id + 1000, a!.id, ['ghost']));
      await storage().read(async (tx) => {
        expect(await tx.alertWords.list(realm.id, a!.id)).toEqual(['Soup', 'ÉCLAIR', 'bread']);
        expect(await tx.alertWords.forUsers(realm.id, [a!.id, b!.id, 9999])).toEqual(new Map([[a!.id, ['Soup', 'ÉCLAIR', 'bread']], [b!.id, ['soup']]]));
        expect(await tx.alertWords.forUsers(realm.id, [])).toEqual(new Map());
        expect(await tx.alertWords.list(realm.id + 1000, a!.id)).toEqual([]);
      });
      await commit(storage(), (tx) => tx.alertWords.remove(realm.id, a!.id, ['SOUP', 'éclair', 'never']));
      expect(await storage().read((tx) => tx.alertWords.list(realm.id, a!.id))).toEqual(['bread']);
      expect(await storage().read((tx) => tx.alertWords.list(realm.id, b!.id))).toEqual(['soup']);
    });
  });
}
