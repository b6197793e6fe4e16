/** The message store's topic probe (message-types.ts topicHasMessage), run by storage.case.ts for every driver. */
import type { NewMessage, Storage } from '@teamchat/core';
import { describe, expect, it } from 'vitest';
import { commit, newStream, seed } from './fixtures.js';

export function describeTopicMessages(storage: () => Storage): void {
  describe('messages.topicHasMessage', () => {
    it('finds a message of the topic ignoring case, honouring except, before and heldBy, within the realm', async () => {
      const { realm, users: [a, b] } = await seed(storage(), [{}, {}]);
      const stream = await commit(storage(), (tx) => tx.streams.insert(newStream(realm.id)));
      const message = (topic: string): NewMessage => ({
        realmId: realm.id, senderId: a!.id, type: 'stream', streamId: stream.id, topic, dmKey: null, content: 'c', renderedContent: '<p>c</p>',
        dateSent: 1, sendingClient: 'test', lastEditTime: null, lastMovedTime: null, editHistory: [], hasLink: false, hasImage: false,
        hasAttachment: false, isMeMessage: false,
      });
      const first = await commit(storage(), (tx) => tx.messages.insert(message('Lunch'), [{ userId: a!.id, flags: 0 }]));
      const second = await commit(storage(), (tx) => tx.messages.insert(message('lunch'), [{ userId: a!.id, flags: 0 }, { userId: b!.id, flags: 0 }]));
      await storage().read(async (tx) => {
        const has = (options?: Parameters<typeof tx.messages.topicHasMessage>[3], realmId = realm.id) =>
          tx.messages.topicHasMessage(realmId, stream.id, 'LUNCH', options);
        expect(await has()).toBe(true);
        expect(await tx.messages.topicHasMessage(realm.id, stream.id, 'dinner')).toBe(false);
        expect(await has({ except: [first.id, second.id] })).toBe(false);
        expect(await has({ except: [second.id] })).toBe(true);
        expect(await has({ before: first.id })).toBe(false);
        expect(await has({ before: second.id })).toBe(true);
        expect(await has({ except: [second.id], heldBy: b!.id })).toBe(false);
        expect(await has({ heldBy: b!.id })).toBe(true);
        expect(await has({}, realm.id + 1000)).toBe(false);
      });
    });
  });
}
