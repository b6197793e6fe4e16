/** The submessage store of the storage contract (submessage-types.ts), run by storage.case.ts for every driver. */
import type { Storage, Tx } from '@teamchat/core';
import { describe, expect, it } from 'vitest';
import { commit, seed } from './fixtures.js';

const message = (tx: Tx, realmId: number, senderId: number) =>
  tx.messages.insert(
    {
      realmId, senderId, type: 'private', streamId: null, topic: '', dmKey: String(senderId),
      content: '/poll Q', renderedContent: '<p>/poll Q</p>', dateSent: 1_700_000_000, sendingClient: 'test', lastEditTime: null,
      lastMovedTime: null, editHistory: [], hasLink: false, hasImage: false, hasAttachment: false, isMeMessage: false,
    },
    [{ userId: senderId, flags: 0 }],
  );

export function describeSubmessageStore(storage: () => Storage): void {
  describe('submessages', () => {
    it('inserts into the realm’s messages only and reads them back in ID order, batched', async () => {
      const { realm, users: [a, b] } = await seed(storage(), [{}, {}]);
      const other = await seed(storage(), [{}]);
      const m1 = await commit(storage(), (tx) => message(tx, realm.id, a!.id));
      const m2 = await commit(storage(), (tx) => message(tx, realm.id, b!.id));
      const add = (messageId: number, senderId: number, msgType: string, content: string) =>
        commit(storage(), (tx) => tx.submessages.insert(realm.id, { messageId, senderId, msgType, content }));
      const s1 = await add(m1.id, a!.id, 'widget', '{"widget_type":"poll"}');
      const s2 = await add(m2.id, b!.id, 'other', '{}');
      const s3 = await add(m1.id, b!.id, 'widget', '{"type":"vote"}');
      expect(s1).toEqual({ id: expect.any(Number), messageId: m1.id, senderId: a!.id, msgType: 'widget', content: '{"widget_type":"poll"}' });
      expect(s2!.id).toBeGreaterThan(s1!.id);
      expect(s3!.id).toBeGreaterThan(s2!.id);
      // Another realm's message takes nothing.
      expect(await commit(storage(), (tx) => tx.submessages.insert(other.realm.id, { messageId: m1.id, senderId: a!.id, msgType: 'widget', content: '{}' }))).toBeUndefined();

      await storage().read(async (tx) => {
        expect(await tx.submessages.forMessages(realm.id, [m2.id, m1.id])).toEqual([s1, s2, s3]);
        expect(await tx.submessages.forMessages(realm.id, [m1.id])).toEqual([s1, s3]);
        expect(await tx.submessages.forMessages(realm.id, [])).toEqual([]);
        expect(await tx.submessages.forMessages(other.realm.id, [m1.id, m2.id])).toEqual([]);
        expect(await tx.submessages.first(realm.id, m1.id)).toEqual(s1);
        expect(await tx.submessages.first(realm.id, m2.id, 'widget')).toBeUndefined();
        expect(await tx.submessages.first(realm.id, m2.id, 'other')).toEqual(s2);
        expect(await tx.submessages.first(other.realm.id, m1.id)).toBeUndefined();
        expect(await tx.submessages.count(realm.id, m1.id)).toBe(2);
        expect(await tx.submessages.count(realm.id, m2.id)).toBe(1);
        expect(await tx.submessages.count(other.realm.id, m1.id)).toBe(0);
      });
    });

    it('go with their message and never hand out a deleted ID again', async () => {
      const { realm, users: [a] } = await seed(storage(), [{}]);
      const m = await commit(storage(), (tx) => message(tx, realm.id, a!.id));
      const first = await commit(storage(), (tx) => tx.submessages.insert(realm.id, { messageId: m.id, senderId: a!.id, msgType: 'widget', content: '{}' }));
      await commit(storage(), (tx) => tx.messages.delete(realm.id, [m.id]));
      expect(await storage().read((tx) => tx.submessages.forMessages(realm.id, [m.id]))).toEqual([]);
      const next = await commit(storage(), (tx) => message(tx, realm.id, a!.id));
      const second = await commit(storage(), (tx) => tx.submessages.insert(realm.id, { messageId: next.id, senderId: a!.id, msgType: 'widget', content: '{}' }));
      expect(second!.id).toBeGreaterThan(first!.id);
    });
  });
}
