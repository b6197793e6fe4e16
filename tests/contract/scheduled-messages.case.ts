/**
 * The scheduled-message store of the storage contract (scheduled-message-types.ts), run by
 * storage.case.ts for every driver: per-user rows of two kinds, and the scheduler's realm-wide scan.
 */
import type { ScheduledMessageFields, Storage } from '@teamchat/core';
import { describe, expect, it } from 'vitest';
import { commit, seed } from './fixtures.js';

const fields = (deliveryTimestamp: number, overrides: Partial<ScheduledMessageFields> = {}): ScheduledMessageFields => ({
  type: 'private',
  streamId: null,
  recipientIds: [1],
  topic: '',
  content: 'hi',
  renderedContent: '<p>hi</p>',
  deliveryTimestamp,
  failed: false,
  ...overrides,
});

export function describeScheduledMessageStore(storage: () => Storage): void {
  describe('scheduledMessages', () => {
    it('keeps each user’s rows by time, the kinds apart, and another realm out', async () => {
      const { realm, users: [a, b] } = await seed(storage(), [{}, {}]);
      const insert = (userId: number, f: ScheduledMessageFields, realmId = realm.id) => commit(storage(), (tx) => tx.scheduledMessages.insert(realmId, userId, f));
      const late = await insert(a!.id, fields(300));
      const early = await insert(a!.id, fields(100));
      const reminder = await insert(a!.id, fields(200, { deliveryType: 'remind', reminderTargetMessageId: 7, reminderNote: 'n' }));
      expect(await insert(a!.id, fields(50), realm.id + 1000)).toBeUndefined();
      expect(late).toMatchObject({ realmId: realm.id, senderId: a!.id, deliveryType: 'send_later', reminderTargetMessageId: null, reminderNote: null, deliveryTimestamp: 300 });
      expect(reminder).toMatchObject({ deliveryType: 'remind', reminderTargetMessageId: 7, reminderNote: 'n' });

      await storage().read(async (tx) => {
        expect((await tx.scheduledMessages.list(realm.id, a!.id)).map((m) => m.id)).toEqual([early!.id, late!.id]);
        expect((await tx.scheduledMessages.list(realm.id, a!.id, 'remind')).map((m) => m.id)).toEqual([reminder!.id]);
        expect(await tx.scheduledMessages.list(realm.id, b!.id)).toEqual([]);
        expect(await tx.scheduledMessages.get(realm.id, a!.id, reminder!.id)).toBeUndefined();
        expect(await tx.scheduledMessages.get(realm.id, b!.id, late!.id)).toBeUndefined();
        expect((await tx.scheduledMessages.due(250)).map((m) => m.id)).toEqual([early!.id, reminder!.id]);
        expect(await tx.scheduledMessages.nextDue()).toBe(100);
      });

      expect(await commit(storage(), (tx) => tx.scheduledMessages.update(realm.id, b!.id, late!.id, fields(400)))).toBeUndefined();
      const failed = await commit(storage(), (tx) => tx.scheduledMessages.update(realm.id, a!.id, early!.id, fields(100, { failed: true })));
      expect(failed).toMatchObject({ id: early!.id, failed: true });
      expect(await commit(storage(), (tx) => tx.scheduledMessages.delete(realm.id, a!.id, reminder!.id))).toBe(false);
      expect(await commit(storage(), (tx) => tx.scheduledMessages.delete(realm.id, a!.id, reminder!.id, 'remind'))).toBe(true);
      expect(await commit(storage(), (tx) => tx.scheduledMessages.delete(realm.id + 1000, a!.id, late!.id))).toBe(false);
      await storage().read(async (tx) => {
        // A failed row is listed but never due.
        expect((await tx.scheduledMessages.list(realm.id, a!.id)).map((m) => [m.id, m.failed])).toEqual([[early!.id, true], [late!.id, false]]);
        expect((await tx.scheduledMessages.due(1000)).map((m) => m.id)).toEqual([late!.id]);
        expect(await tx.scheduledMessages.nextDue()).toBe(300);
      });
    });
  });
}
