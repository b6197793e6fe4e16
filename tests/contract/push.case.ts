/** The push store of the storage contract (push-types.ts), run by storage.case.ts for every driver. */
import type { Storage, Tx } from '@teamchat/core';
import { describe, expect, it } from 'vitest';
import { commit, seed } from './fixtures.js';

const dm = (tx: Tx, realmId: number, senderId: number, flags: Record<number, number>) =>
  tx.messages.insert(
    {
      realmId, senderId, type: 'private', streamId: null, topic: '', dmKey: Object.keys(flags).map(Number).sort((a, b) => a - b).join(','),
      content: 'x', renderedContent: '<p>x</p>', dateSent: 1_700_000_000, sendingClient: 'test', lastEditTime: null,
      lastMovedTime: null, editHistory: [], hasLink: false, hasImage: false, hasAttachment: false, isMeMessage: false,
    },
    Object.entries(flags).map(([userId, f]) => ({ userId: Number(userId), flags: f })),
  );

export function describePushStore(storage: () => Storage): void {
  describe('push', () => {
    it('adds tokens once per (user, kind, token), removes only the named one, and stays within its realm', async () => {
      const { realm, users } = await seed(storage(), [{}, {}]);
      const [a, b] = users as [(typeof users)[0], (typeof users)[0]];
      const token = (userId: number, kind: 'fcm' | 'apns', text: string, iosAppId: string | null = null) => ({ userId, kind, token: text, iosAppId, dateCreated: 7 });
      expect(await commit(storage(), (tx) => tx.push.addToken(realm.id, token(a.id, 'fcm', 't1')))).toBe(true);
      expect(await commit(storage(), (tx) => tx.push.addToken(realm.id, token(a.id, 'fcm', 't1')))).toBe(false);
      expect(await commit(storage(), (tx) => tx.push.addToken(realm.id, token(a.id, 'apns', 't1', 'org.example')))).toBe(true);
      expect(await commit(storage(), (tx) => tx.push.addToken(realm.id, token(b.id, 'fcm', 't1')))).toBe(true);
      expect(await commit(storage(), (tx) => tx.push.addToken(realm.id + 1000, token(a.id, 'fcm', 't2')))).toBe(false);
      const list = (ids: number[], realmId = realm.id) => storage().read((tx) => tx.push.tokensOf(realmId, ids));
      expect(await list([a.id])).toEqual([token(a.id, 'fcm', 't1'), token(a.id, 'apns', 't1', 'org.example')]);
      expect(await list([a.id, b.id])).toHaveLength(3);
      expect(await list([a.id], realm.id + 1000)).toEqual([]);
      expect(await commit(storage(), (tx) => tx.push.removeToken(realm.id, b.id, 'apns', 't1'))).toBe(false);
      expect(await commit(storage(), (tx) => tx.push.removeToken(realm.id + 1000, a.id, 'fcm', 't1'))).toBe(false);
      expect(await commit(storage(), (tx) => tx.push.removeToken(realm.id, a.id, 'fcm', 't1'))).toBe(true);
      expect(await list([a.id, b.id])).toEqual([token(a.id, 'apns', 't1', 'org.example'), token(b.id, 'fcm', 't1')]);
    });

    it('records notifications of unread copies once, and clears them per user, deleted messages included', async () => {
      const { realm, users } = await seed(storage(), [{}, {}, {}]);
      const [a, b, c] = users.map((u) => u.id) as [number, number, number];
      const m1 = (await commit(storage(), (tx) => dm(tx, realm.id, a, { [a]: 1, [b]: 0, [c]: 0 }))).id;
      const m2 = (await commit(storage(), (tx) => dm(tx, realm.id, a, { [a]: 1, [b]: 1 }))).id;
      const mark = (userId: number, ids: number[], realmId = realm.id) => commit(storage(), (tx) => tx.push.markNotified(realmId, userId, ids));
      expect(await mark(b, [m2, m1, 999_999])).toEqual([m1]); // m2 is read, 999999 does not exist
      expect(await mark(b, [m1])).toEqual([]);
      expect(await mark(c, [m2])).toEqual([]); // no copy
      expect(await mark(c, [m1], realm.id + 1000)).toEqual([]);
      expect(await mark(c, [m1])).toEqual([m1]);
      await commit(storage(), (tx) => tx.messages.delete(realm.id, [m1]));
      const clear = (userIds: number[], ids: number[], realmId = realm.id) => commit(storage(), (tx) => tx.push.clearNotified(realmId, userIds, ids));
      expect(await clear([b, c], [m1], realm.id + 1000)).toEqual(new Map());
      expect(await clear([b, c], [m1, m2])).toEqual(new Map([[b, [m1]], [c, [m1]]]));
      expect(await clear([b, c], [m1])).toEqual(new Map());
    });
  });
}
