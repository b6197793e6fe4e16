/** The draft store of the storage contract (draft-types.ts), run by storage.case.ts for every driver. */
import type { DraftFields, Storage } from '@teamchat/core';
import { describe, expect, it } from 'vitest';
import { commit, seed } from './fixtures.js';

const fields = (overrides: Partial<DraftFields> = {}): DraftFields => ({ type: '', to: [], topic: '', content: 'x', lastEditTime: 1, ...overrides });

export function describeDraftStore(storage: () => Storage): void {
  describe('drafts', () => {
    it('inserts in order, lists by edit time either way, updates and deletes only the owner’s drafts', async () => {
      const { realm, users: [a, b] } = await seed(storage(), [{}, {}]);
      const [d1, d2, d3] = await commit(storage(), (tx) =>
        tx.drafts.insert(realm.id, a!.id, [fields({ content: 'one', lastEditTime: 20.25 }), fields({ type: 'private', to: [b!.id], content: 'two', lastEditTime: 10 }), fields({ type: 'stream', to: [7], topic: 't', content: 'three', lastEditTime: 20.25 })]),
      );
      expect(d1).toEqual({ id: d1!.id, realmId: realm.id, userId: a!.id, type: '', to: [], topic: '', content: 'one', lastEditTime: 20.25 });
      expect(d1!.id < d2!.id && d2!.id < d3!.id).toBe(true);
      // Another realm's user (or an unknown one) gets nothing written.
      expect(await commit(storage(), (tx) => tx.drafts.insert(realm.id + 1000, a!.id, [fields()]))).toEqual([]);
      await storage().read(async (tx) => {
        expect((await tx.drafts.list(realm.id, a!.id)).map((d) => d.content)).toEqual(['two', 'one', 'three']);
        expect((await tx.drafts.list(realm.id, a!.id, { newestFirst: true, limit: 2 })).map((d) => d.content)).toEqual(['three', 'one']);
        expect(await tx.drafts.list(realm.id, b!.id)).toEqual([]);
        expect(await tx.drafts.get(realm.id, b!.id, d1!.id)).toBeUndefined();
        expect(await tx.drafts.get(realm.id + 1000, a!.id, d1!.id)).toBeUndefined();
        expect(await tx.drafts.get(realm.id, a!.id, d2!.id)).toEqual(d2);
      });
      expect(await commit(storage(), (tx) => tx.drafts.update(realm.id, b!.id, d1!.id, fields({ content: 'stolen' })))).toBeUndefined();
      expect(await commit(storage(), (tx) => tx.drafts.update(realm.id, a!.id, d1!.id, fields({ type: 'stream', to: [3], topic: 'new', content: 'edited', lastEditTime: 30 })))).toEqual({
        ...d1,
        type: 'stream',
        to: [3],
        topic: 'new',
        content: 'edited',
        lastEditTime: 30,
      });
      expect(await commit(storage(), (tx) => tx.drafts.delete(realm.id, b!.id, d2!.id))).toBe(false);
      expect(await commit(storage(), (tx) => tx.drafts.delete(realm.id, a!.id, d2!.id))).toBe(true);
      expect(await commit(storage(), (tx) => tx.drafts.delete(realm.id, a!.id, d2!.id))).toBe(false);
      expect((await storage().read((tx) => tx.drafts.list(realm.id, a!.id))).map((d) => d.content)).toEqual(['three', 'edited']);
    });
  });
}
