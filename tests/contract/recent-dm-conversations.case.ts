/**
 * MessageStore.recentDmConversations: a user's direct conversations with the newest message they
 * hold, newest first, capped (the register's recent_private_conversations). Run by
 * storage.case.ts for every driver.
 */
import type { Storage, Tx } from '@teamchat/core';
import { describe, expect, it } from 'vitest';
import { commit, seed } from './fixtures.js';

const dmKey = (participants: number[]) => [...new Set(participants)].sort((a, b) => a - b).join(',');

const dm = (tx: Tx, realmId: number, senderId: number, participants: number[], holders = participants) =>
  tx.messages.insert(
    {
      realmId, senderId, type: 'private', streamId: null, topic: '', dmKey: dmKey(participants),
      content: 'x', renderedContent: '<p>x</p>', dateSent: 1_700_000_000, sendingClient: 'test', lastEditTime: null,
      lastMovedTime: null, editHistory: [], hasLink: false, hasImage: false, hasAttachment: false, isMeMessage: false,
    },
    [...new Set(holders)].map((userId) => ({ userId, flags: 0 })),
  );

export function describeRecentDmConversations(storage: () => Storage): void {
  describe('recent direct conversations', () => {
    const recent = (realmId: number, userId: number, limit = 1000) =>
      storage().read((tx) => tx.messages.recentDmConversations(realmId, userId, limit));

    it('lists one-on-one, group and self conversations by their newest message, newest first', async () => {
      const { realm, users } = await seed(storage(), [{}, {}, {}]);
      const [a, b, c] = users.map((u) => u.id) as [number, number, number];
      expect(await recent(realm.id, a)).toEqual([]);
      const first = await commit(storage(), (tx) => dm(tx, realm.id, a, [a, b]));
      const self = await commit(storage(), (tx) => dm(tx, realm.id, a, [a]));
      const group = await commit(storage(), (tx) => dm(tx, realm.id, c, [a, b, c]));
      const second = await commit(storage(), (tx) => dm(tx, realm.id, b, [a, b]));
      expect(await recent(realm.id, a)).toEqual([
        { dmKey: dmKey([a, b]), maxMessageId: second.id },
        { dmKey: dmKey([a, b, c]), maxMessageId: group.id },
        { dmKey: dmKey([a]), maxMessageId: self.id },
      ]);
      expect(await recent(realm.id, c)).toEqual([{ dmKey: dmKey([a, b, c]), maxMessageId: group.id }]);
      expect(first.id).toBeLessThan(second.id);
    });

    it('follows deletions and lost copies, and never another realm', async () => {
      const { realm, users } = await seed(storage(), [{}, {}]);
      const [a, b] = users.map((u) => u.id) as [number, number];
      const older = await commit(storage(), (tx) => dm(tx, realm.id, a, [a, b]));
      const newer = await commit(storage(), (tx) => dm(tx, realm.id, a, [a, b]));
      await commit(storage(), (tx) => tx.messages.delete(realm.id, [newer.id]));
      expect(await recent(realm.id, a)).toEqual([{ dmKey: dmKey([a, b]), maxMessageId: older.id }]);
      // b no longer holds the older message: the conversation is gone for b, kept for a.
      await commit(storage(), (tx) => tx.messages.removeRecipients(older.id, [b]));
      expect(await recent(realm.id, b)).toEqual([]);
      expect(await recent(realm.id, a)).toEqual([{ dmKey: dmKey([a, b]), maxMessageId: older.id }]);
      await commit(storage(), (tx) => tx.messages.delete(realm.id, [older.id]));
      expect(await recent(realm.id, a)).toEqual([]);
      // A participant without a copy (the message was never given to them) does not see it.
      await commit(storage(), (tx) => dm(tx, realm.id, a, [a, b], [a]));
      expect(await recent(realm.id, b)).toEqual([]);

      const other = await seed(storage(), [{}]);
      expect(await recent(other.realm.id, a)).toEqual([]);
    });

    it('stops at the limit, keeping the newest', async () => {
      const { realm, users } = await seed(storage(), [{}, {}, {}, {}]);
      const [a, ...others] = users.map((u) => u.id) as [number, ...number[]];
      const ids: number[] = [];
      for (const other of others) ids.push((await commit(storage(), (tx) => dm(tx, realm.id, a, [a, other]))).id);
      expect(await recent(realm.id, a, 2)).toEqual([
        { dmKey: dmKey([a, others[2]!]), maxMessageId: ids[2] },
        { dmKey: dmKey([a, others[1]!]), maxMessageId: ids[1] },
      ]);
    });
  });
}
