/**
 * MessageStore.dmPeerIds: who shares a direct conversation with a user (the can_access_all_users_group
 * rule reads it). Run by storage.case.ts for every driver.
 */
import type { Storage, Tx } from '@teamchat/core';
import { describe, expect, it } from 'vitest';
import { commit, seed } from './fixtures.js';

const dm = (tx: Tx, realmId: number, senderId: number, participants: number[]) =>
  tx.messages.insert(
    {
      realmId, senderId, type: 'private', streamId: null, topic: '', dmKey: [...participants].sort((a, b) => a - b).join(','),
      content: 'x', renderedContent: '<p>x</p>', dateSent: 1_700_000_000, sendingClient: 'test', lastEditTime: null,
      lastMovedTime: null, editHistory: [], hasLink: false, hasImage: false, hasAttachment: false, isMeMessage: false,
    },
    participants.map((userId) => ({ userId, flags: 0 })),
  );

export function describeDmPeers(storage: () => Storage): void {
  describe('direct-conversation peers', () => {
    it('lists everyone who shares a one-on-one or group conversation, ascending, never the user', async () => {
      const { realm, users } = await seed(storage(), [{}, {}, {}, {}, {}]);
      const [a, b, c, d, e] = users.map((u) => u.id) as [number, number, number, number, number];
      await commit(storage(), (tx) => dm(tx, realm.id, a, [a]));
      expect(await storage().read((tx) => tx.messages.dmPeerIds(realm.id, a))).toEqual([]);
      await commit(storage(), (tx) => dm(tx, realm.id, a, [a, c]));
      await commit(storage(), (tx) => dm(tx, realm.id, b, [b, d, a]));
      await commit(storage(), (tx) => dm(tx, realm.id, d, [d, e]));
      const read = (id: number) => storage().read((tx) => tx.messages.dmPeerIds(realm.id, id));
      expect(await read(a)).toEqual([b, c, d].sort((x, y) => x - y));
      expect(await read(e)).toEqual([d]);
      expect(await read(c)).toEqual([a]);
      // Deleting the messages keeps the conversation, like the reference's group subscriptions.
      const id = (await commit(storage(), (tx) => dm(tx, realm.id, c, [c, e]))).id;
      await commit(storage(), (tx) => tx.messages.delete(realm.id, [id]));
      expect(await read(c)).toEqual([a, e].sort((x, y) => x - y));
    });
  });
}
