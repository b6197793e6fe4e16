/** The realm-domain store of the storage contract (realm-domain-types.ts), run by storage.case.ts for every driver. */
import type { Storage } from '@teamchat/core';
import { describe, expect, it } from 'vitest';
import { commit, seed } from './fixtures.js';

export function describeRealmDomainStore(storage: () => Storage): void {
  describe('realmDomains', () => {
    it('adds once per realm, updates, removes, and keeps realms apart', async () => {
      const { realm } = await seed(storage());
      const add = (domain: string, realmId = realm.id) => commit(storage(), (tx) => tx.realmDomains.add(realmId, { domain, allowSubdomains: false }));
      const first = await add('a.com');
      expect(first).toEqual(expect.any(Number));
      expect(await add('b.com')).toBeGreaterThan(first!);
      expect(await add('a.com')).toBeUndefined();
      expect(await add('c.com', realm.id + 1000)).toBeUndefined();
      expect(await commit(storage(), (tx) => tx.realmDomains.update(realm.id, 'a.com', true))).toBe(true);
      expect(await commit(storage(), (tx) => tx.realmDomains.update(realm.id, 'x.com', true))).toBe(false);
      expect(await commit(storage(), (tx) => tx.realmDomains.update(realm.id + 1000, 'a.com', false))).toBe(false);
      expect(await commit(storage(), (tx) => tx.realmDomains.remove(realm.id + 1000, 'b.com'))).toBe(false);
      expect(await commit(storage(), (tx) => tx.realmDomains.remove(realm.id, 'b.com'))).toBe(true);
      expect(await commit(storage(), (tx) => tx.realmDomains.remove(realm.id, 'b.com'))).toBe(false);
      await storage().read(async (tx) => {
        expect(await tx.realmDomains.list(realm.id)).toEqual([{ domain: 'a.com', allowSubdomains: true }]);
        expect(await tx.realmDomains.list(realm.id + 1000)).toEqual([]);
      });
    });
  });
}
