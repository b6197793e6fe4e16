/** The linkifier store of the storage contract (linkifier-types.ts), run by storage.case.ts for every driver. */
import type { Storage } from '@teamchat/core';
import { describe, expect, it } from 'vitest';
import { commit, seed } from './fixtures.js';

const linkifier = (pattern: string) => ({ pattern, urlTemplate: 'https://x/{id}', exampleInput: null, reverseTemplate: null, alternativeUrlTemplates: [] });

export function describeLinkifierStore(storage: () => Storage): void {
  describe('linkifiers', () => {
    it('appends, updates, reorders and deletes within the realm; a realm pattern is unique', async () => {
      const { realm } = await seed(storage());
      const a = await commit(storage(), (tx) => tx.linkifiers.insert(realm.id, linkifier('a(?P<id>1)')));
      const b = await commit(storage(), (tx) => tx.linkifiers.insert(realm.id, { ...linkifier('b(?P<id>1)'), exampleInput: 'b1', alternativeUrlTemplates: ['https://y/{id}'] }));
      await expect(commit(storage(), (tx) => tx.linkifiers.insert(realm.id, linkifier('a(?P<id>1)')))).rejects.toThrow();
      const list = () => storage().read((tx) => tx.linkifiers.list(realm.id));
      expect(await list()).toEqual([a, b]);
      expect(b).toMatchObject({ realmId: realm.id, exampleInput: 'b1', alternativeUrlTemplates: ['https://y/{id}'] });
      await commit(storage(), (tx) => tx.linkifiers.reorder(realm.id, [b.id, a.id]));
      const changed = { ...linkifier('c(?P<id>1)'), reverseTemplate: 'c{id}' };
      expect(await commit(storage(), (tx) => tx.linkifiers.update(realm.id, a.id, changed))).toBe(true);
      expect(await list()).toEqual([b, { ...a, ...changed }]);
      // Another realm's IDs change nothing.
      expect(await commit(storage(), (tx) => tx.linkifiers.update(realm.id + 1000, a.id, linkifier('z')))).toBe(false);
      expect(await commit(storage(), (tx) => tx.linkifiers.delete(realm.id + 1000, a.id))).toBe(false);
      expect(await commit(storage(), (tx) => tx.linkifiers.delete(realm.id, b.id))).toBe(true);
      expect((await list()).map((l) => l.id)).toEqual([a.id]);
    });
  });
}
