/** The user-topic store of the storage contract (user-topic-types.ts), run by storage.case.ts for every driver. */
import type { Storage } from '@teamchat/core';
import { describe, expect, it } from 'vitest';
import { commit, newRealm, newStream, newUser, seed } from './fixtures.js';

export function describeUserTopicStore(storage: () => Storage): void {
  describe('userTopics', () => {
    it('sets, changes and removes policies; topics fold case; reports no-ops; stays within realm', async () => {
      const { realm, users: [a, b] } = await seed(storage(), [{}, {}]);
      const stream = await commit(storage(), (tx) => tx.streams.insert(newStream(realm.id)));
      const set = (userId: number, topic: string, policy: 0 | 1 | 2 | 3, at = 100, realmId = realm.id, streamId = stream.id) =>
        commit(storage(), (tx) => tx.userTopics.set(realmId, userId, streamId, topic, policy, at));

      expect(await set(a!.id, 'Lunch', 1)).toBe(true);
      expect(await set(a!.id, 'lunch', 1, 200)).toBe(false);
      // Another policy for the same topic in another case changes the row, which keeps its spelling.
      expect(await set(a!.id, 'LUNCH', 3, 300)).toBe(true);
      expect(await set(b!.id, 'lunch', 2)).toBe(true);
      expect(await set(a!.id, 'dinner', 0)).toBe(false);
      expect(await set(a!.id, 'dinner', 1, 400)).toBe(true);

      await storage().read(async (tx) => {
        expect(await tx.userTopics.list(realm.id, a!.id)).toEqual([
          { userId: a!.id, streamId: stream.id, topic: 'Lunch', visibilityPolicy: 3, lastUpdated: 300 },
          { userId: a!.id, streamId: stream.id, topic: 'dinner', visibilityPolicy: 1, lastUpdated: 400 },
        ]);
        expect((await tx.userTopics.forTopic(realm.id, stream.id, 'LUNCH')).map((r) => [r.userId, r.visibilityPolicy])).toEqual([
          [a!.id, 3],
          [b!.id, 2],
        ]);
        expect(await tx.userTopics.list(realm.id + 1000, a!.id)).toEqual([]);
        expect(await tx.userTopics.forTopic(realm.id + 1000, stream.id, 'lunch')).toEqual([]);
      });

      expect(await set(a!.id, 'DINNER', 0)).toBe(true);
      expect(await set(a!.id, 'dinner', 0)).toBe(false);
      // Another realm's user or channel gets nothing written.
      const other = await commit(storage(), (tx) => tx.realms.insert(newRealm({ subdomain: 'elsewhere' })));
      const stranger = await commit(storage(), (tx) => tx.users.insert(newUser(other.id, { deliveryEmail: 'x@elsewhere.example' })));
      expect(await set(stranger.id, 'lunch', 1, 100, other.id)).toBe(false);
      expect(await set(a!.id, 'lunch', 1, 100, other.id)).toBe(false);
      expect(await set(a!.id, 'lunch', 0, 100, other.id)).toBe(false);
      await storage().read(async (tx) => {
        expect((await tx.userTopics.list(realm.id, a!.id)).map((r) => r.topic)).toEqual(['Lunch']);
        expect(await tx.userTopics.list(other.id, stranger.id)).toEqual([]);
      });
    });
  });
}
