/** The saved-snippet store of the storage contract (saved-snippet-types.ts), run by storage.case.ts for every driver. */
import type { Storage } from '@teamchat/core';
import { describe, expect, it } from 'vitest';
import { commit, seed } from './fixtures.js';

export function describeSavedSnippetStore(storage: () => Storage): void {
  describe('savedSnippets', () => {
    it('inserts in order, updates given fields, deletes, and stays within its user and realm', async () => {
      const { realm, users: [a, b] } = await seed(storage(), [{}, {}]);
      const first = await commit(storage(), (tx) => tx.savedSnippets.insert(realm.id, a!.id, { title: 't1', content: 'c1', dateCreated: 5 }));
      const second = await commit(storage(), (tx) => tx.savedSnippets.insert(realm.id, a!.id, { title: 't2', content: 'c2', dateCreated: 6 }));
      expect(first).toEqual({ id: expect.any(Number), title: 't1', content: 'c1', dateCreated: 5 });
      expect(await commit(storage(), (tx) => tx.savedSnippets.insert(realm.id + 1000, a!.id, { title: 'x', content: 'x', dateCreated: 1 }))).toBeUndefined();

      expect(await commit(storage(), (tx) => tx.savedSnippets.update(realm.id, a!.id, first!.id, { content: 'new' }))).toEqual({ ...first, content: 'new' });
      expect(await commit(storage(), (tx) => tx.savedSnippets.update(realm.id, b!.id, first!.id, { content: 'theirs' }))).toBeUndefined();
      expect(await commit(storage(), (tx) => tx.savedSnippets.delete(realm.id, b!.id, second!.id))).toBe(false);
      expect(await commit(storage(), (tx) => tx.savedSnippets.delete(realm.id + 1000, a!.id, second!.id))).toBe(false);
      expect(await commit(storage(), (tx) => tx.savedSnippets.delete(realm.id, a!.id, second!.id))).toBe(true);

      await storage().read(async (tx) => {
        expect(await tx.savedSnippets.list(realm.id, a!.id)).toEqual([{ ...first, content: 'new' }]);
        expect(await tx.savedSnippets.list(realm.id, b!.id)).toEqual([]);
        expect(await tx.savedSnippets.list(realm.id + 1000, a!.id)).toEqual([]);
      });
    });
  });
}
