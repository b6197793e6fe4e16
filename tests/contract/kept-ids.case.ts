/**
 * IDs are never handed out twice (kept-ids.ts): after the newest row of a table whose IDs
 * clients keep is deleted, the next row gets a new ID. Run by storage.case.ts for every driver.
 */
import type { Storage, Tx } from '@teamchat/core';
import { describe, expect, it } from 'vitest';
import { commit, seed } from './fixtures.js';

const message = (tx: Tx, realmId: number, senderId: number) =>
  tx.messages.insert(
    {
      realmId, senderId, type: 'private', streamId: null, topic: '', dmKey: String(senderId), content: 'x', renderedContent: '<p>x</p>',
      dateSent: 1_700_000_000, sendingClient: 'test', lastEditTime: null, lastMovedTime: null, editHistory: [],
      hasLink: false, hasImage: false, hasAttachment: false, isMeMessage: false,
    },
    [{ userId: senderId, flags: 0 }],
  );

export function describeKeptIds(storage: () => Storage): void {
  describe('kept IDs', () => {
    it('a deleted newest message, draft or saved snippet does not lend its ID to the next one', async () => {
      const { realm, users: [a] } = await seed(storage(), [{}]);
      const first = await commit(storage(), (tx) => message(tx, realm.id, a!.id));
      const newest = await commit(storage(), (tx) => message(tx, realm.id, a!.id));
      await commit(storage(), (tx) => tx.messages.delete(realm.id, [newest.id]));
      const next = await commit(storage(), (tx) => message(tx, realm.id, a!.id));
      expect(next.id).toBeGreaterThan(newest.id);
      expect(newest.id).toBeGreaterThan(first.id);

      const draft = { type: '' as const, to: [], topic: '', content: 'd', lastEditTime: 1 };
      const [d1] = await commit(storage(), (tx) => tx.drafts.insert(realm.id, a!.id, [draft]));
      await commit(storage(), (tx) => tx.drafts.delete(realm.id, a!.id, d1!.id));
      const [d2] = await commit(storage(), (tx) => tx.drafts.insert(realm.id, a!.id, [draft]));
      expect(d2!.id).toBeGreaterThan(d1!.id);

      const snippet = { title: 't', content: 'c', dateCreated: 1 };
      const s1 = await commit(storage(), (tx) => tx.savedSnippets.insert(realm.id, a!.id, snippet));
      await commit(storage(), (tx) => tx.savedSnippets.delete(realm.id, a!.id, s1!.id));
      const s2 = await commit(storage(), (tx) => tx.savedSnippets.insert(realm.id, a!.id, snippet));
      expect(s2!.id).toBeGreaterThan(s1!.id);
    });
  });
}
