/** The code playground store of the storage contract (playground-types.ts), run by storage.case.ts for every driver. */
import type { Storage } from '@teamchat/core';
import { describe, expect, it } from 'vitest';
import { commit, seed } from './fixtures.js';

const playground = (name: string, pygmentsLanguage = 'Python') => ({ name, pygmentsLanguage, urlTemplate: 'https://play.example/?c={code}' });

export function describePlaygroundStore(storage: () => Storage): void {
  describe('playgrounds', () => {
    it('adds, lists by ID and deletes within the realm; (language, name) is unique; IDs are not reused', async () => {
      const { realm } = await seed(storage());
      const list = () => storage().read((tx) => tx.playgrounds.list(realm.id));
      const a = await commit(storage(), (tx) => tx.playgrounds.insert(realm.id, playground('A')));
      const b = await commit(storage(), (tx) => tx.playgrounds.insert(realm.id, playground('A', 'Rust')));
      expect(a).toEqual({ id: expect.any(Number), realmId: realm.id, ...playground('A') });
      await expect(commit(storage(), (tx) => tx.playgrounds.insert(realm.id, playground('A')))).rejects.toThrow();
      expect(await list()).toEqual([a, b]);
      expect(await commit(storage(), (tx) => tx.playgrounds.delete(realm.id + 1000, b.id))).toBe(false);
      expect(await commit(storage(), (tx) => tx.playgrounds.delete(realm.id, b.id))).toBe(true);
      expect(await commit(storage(), (tx) => tx.playgrounds.delete(realm.id, b.id))).toBe(false);
      const c = await commit(storage(), (tx) => tx.playgrounds.insert(realm.id, playground('C')));
      expect(c.id).toBeGreaterThan(b.id);
      expect(await list()).toEqual([a, c]);
      expect(await storage().read((tx) => tx.playgrounds.list(realm.id + 1000))).toEqual([]);
    });
  });
}
