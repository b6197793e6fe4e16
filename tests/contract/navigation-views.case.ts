/** The navigation-view store of the storage contract (navigation-view-types.ts), run by storage.case.ts for every driver. */
import type { Storage } from '@teamchat/core';
import { describe, expect, it } from 'vitest';
import { commit, seed } from './fixtures.js';

export function describeNavigationViewStore(storage: () => Storage): void {
  describe('navigationViews', () => {
    it('inserts in order, refuses taken fragments and names per user, updates, removes, stays within user and realm', async () => {
      const { realm, users: [a, b] } = await seed(storage(), [{}, {}]);
      const insert = async (userId: number, fragment: string, name: string | null, realmId = realm.id) =>
        commit(storage(), (tx) => tx.navigationViews.insert(realmId, userId, { fragment, isPinned: true, name }));

      expect(await insert(a!.id, 'inbox', null)).toBe(true);
      expect(await insert(a!.id, 'recent', null)).toBe(true);
      expect(await insert(a!.id, 'narrow/is/alerted', 'Alerts')).toBe(true);
      expect(await insert(a!.id, 'narrow/is/alerted', 'Other')).toBe(false);
      expect(await insert(a!.id, 'narrow/is/dm', 'Alerts')).toBe(false);
      // Another user may use the same fragment and name; another realm's user gets nothing written.
      expect(await insert(b!.id, 'narrow/is/alerted', 'Alerts')).toBe(true);
      expect(await insert(a!.id, 'feed', null, realm.id + 1000)).toBe(false);

      expect(await commit(storage(), (tx) => tx.navigationViews.update(realm.id, a!.id, 'inbox', { isPinned: false }))).toBe(true);
      expect(await commit(storage(), (tx) => tx.navigationViews.update(realm.id, a!.id, 'inbox', { name: 'Alerts' }))).toBe(false);
      expect(await commit(storage(), (tx) => tx.navigationViews.update(realm.id, a!.id, 'narrow/is/alerted', { name: 'Words', isPinned: false }))).toBe(true);
      expect(await commit(storage(), (tx) => tx.navigationViews.remove(realm.id, a!.id, 'recent'))).toBe(true);
      expect(await commit(storage(), (tx) => tx.navigationViews.remove(realm.id, a!.id, 'recent'))).toBe(false);
      expect(await commit(storage(), (tx) => tx.navigationViews.remove(realm.id + 1000, b!.id, 'narrow/is/alerted'))).toBe(false);

      await storage().read(async (tx) => {
        expect(await tx.navigationViews.list(realm.id, a!.id)).toEqual([
          { fragment: 'inbox', isPinned: false, name: null },
          { fragment: 'narrow/is/alerted', isPinned: false, name: 'Words' },
        ]);
        expect(await tx.navigationViews.byFragment(realm.id, b!.id, 'narrow/is/alerted')).toEqual({ fragment: 'narrow/is/alerted', isPinned: true, name: 'Alerts' });
        expect(await tx.navigationViews.byFragment(realm.id, b!.id, 'inbox')).toBeUndefined();
        expect(await tx.navigationViews.list(realm.id + 1000, a!.id)).toEqual([]);
      });
    });
  });
}
