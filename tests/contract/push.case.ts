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
      expect(await commit(storage(), (tx) => tx.push.removeTokens(realm.id + 1000, a.id))).toBe(0);
      expect(await commit(storage(), (tx) => tx.push.removeTokens(realm.id, a.id))).toBe(1);
      expect(await list([a.id, b.id])).toEqual([token(b.id, 'fcm', 't1')]);
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

    it('creates devices per user, never reusing an ID, patches only the fields given, and stays within its user and realm', async () => {
      const { realm, users } = await seed(storage(), [{}, {}]);
      const [a, b] = users.map((u) => u.id) as [number, number];
      const empty = { pushKey: null, pushKeyId: null, pushTokenKind: null, pushTokenId: null, pendingPushTokenId: null, pushTokenLastUpdatedTimestamp: null, pushRegistrationErrorCode: null };
      const d1 = await commit(storage(), (tx) => tx.push.insertDevice(realm.id, a));
      const d2 = await commit(storage(), (tx) => tx.push.insertDevice(realm.id, a));
      const d3 = await commit(storage(), (tx) => tx.push.insertDevice(realm.id, b));
      expect(d1).toEqual({ id: expect.any(Number), userId: a, ...empty });
      expect(await commit(storage(), (tx) => tx.push.insertDevice(realm.id + 1000, a))).toBeUndefined();
      const patch = { pushKey: 'key', pushKeyId: 4294967295, pushTokenKind: 'apns' as const, pendingPushTokenId: 'AAAAAAAAAAE=', pushTokenLastUpdatedTimestamp: 9 };
      expect(await commit(storage(), (tx) => tx.push.updateDevice(realm.id, a, d1!.id, patch))).toEqual({ ...d1, ...patch });
      // undefined leaves a field alone, null clears it; another user's or realm's device is not touched.
      expect(await commit(storage(), (tx) => tx.push.updateDevice(realm.id, a, d1!.id, { pushTokenId: 'AAAAAAAAAAE=', pendingPushTokenId: null, pushKey: undefined })))
        .toEqual({ ...d1, ...patch, pushTokenId: 'AAAAAAAAAAE=', pendingPushTokenId: null });
      expect(await commit(storage(), (tx) => tx.push.updateDevice(realm.id, b, d1!.id, { pushKey: 'theirs' }))).toBeUndefined();
      expect(await commit(storage(), (tx) => tx.push.updateDevice(realm.id + 1000, a, d1!.id, { pushKey: 'theirs' }))).toBeUndefined();
      expect(await storage().read((tx) => tx.push.device(realm.id, a, d1!.id))).toMatchObject({ pushKey: 'key' });
      expect(await storage().read((tx) => tx.push.device(realm.id, b, d1!.id))).toBeUndefined();
      expect((await storage().read((tx) => tx.push.devicesOf(realm.id, [a, b]))).map((d) => d.id)).toEqual([d1!.id, d2!.id, d3!.id]);
      expect(await commit(storage(), (tx) => tx.push.deleteDevice(realm.id, b, d2!.id))).toBe(false);
      expect(await commit(storage(), (tx) => tx.push.deleteDevice(realm.id, a, d2!.id))).toBe(true);
      expect(await commit(storage(), (tx) => tx.push.deleteDevice(realm.id, a, d2!.id))).toBe(false);
      const d4 = await commit(storage(), (tx) => tx.push.insertDevice(realm.id, a));
      expect(d4!.id).toBeGreaterThan(d3!.id);
      expect((await storage().read((tx) => tx.push.devicesOf(realm.id, [a]))).map((d) => d.id)).toEqual([d1!.id, d4!.id]);
    });
  });
}
