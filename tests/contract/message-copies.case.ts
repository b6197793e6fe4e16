/**
 * Each recipient's copy of a message (user_message rows), which the stores write as one
 * multi-row statement (Statements.insertRows: chunks of 64 rows on SQLite, one unnest INSERT on
 * PostgreSQL). Run by storage.case.ts for every driver.
 */
import type { NewMessage, Storage } from '@teamchat/core';
import { describe, expect, it } from 'vitest';
import { commit, newStream, seed } from './fixtures.js';

/** More than two of SQLite's 64-row statements. */
const MANY = 150;

export function describeMessageCopies(storage: () => Storage): void {
  describe('messages: recipients\' copies', () => {
    const message = (realmId: number, senderId: number, streamId: number): NewMessage => ({
      realmId, senderId, type: 'stream', streamId, topic: 't', dmKey: null, content: 'c', renderedContent: '<p>c</p>',
      dateSent: 1, sendingClient: 'test', lastEditTime: null, lastMovedTime: null, editHistory: [], hasLink: false, hasImage: false,
      hasAttachment: false, isMeMessage: false,
    });

    it(`insert stores every copy with its own flags, past one statement's rows (${MANY} recipients)`, async () => {
      const { realm, users } = await seed(storage(), Array.from({ length: MANY }, () => ({})));
      const stream = await commit(storage(), (tx) => tx.streams.insert(newStream(realm.id)));
      const copies = users.map((u, i) => ({ userId: u.id, flags: i % 7 }));
      const sent = await commit(storage(), (tx) => tx.messages.insert(message(realm.id, users[0]!.id, stream.id), copies));
      await storage().read(async (tx) => {
        expect(await tx.messages.recipients(sent.id)).toEqual([...copies].sort((a, b) => a.userId - b.userId));
        expect(await tx.messages.flagsOf(users[MANY - 1]!.id, [sent.id])).toEqual(new Map([[sent.id, (MANY - 1) % 7]]));
        expect(await tx.messages.byId(realm.id, sent.id)).toEqual({ ...message(realm.id, users[0]!.id, stream.id), id: sent.id });
      });
    });

    it('a copy listed twice fails the insert, and the transaction keeps nothing of it', async () => {
      const { realm, users: [a, b] } = await seed(storage(), [{}, {}]);
      const stream = await commit(storage(), (tx) => tx.streams.insert(newStream(realm.id)));
      const failed = commit(storage(), (tx) =>
        tx.messages.insert(message(realm.id, a!.id, stream.id), [{ userId: a!.id, flags: 0 }, { userId: b!.id, flags: 0 }, { userId: a!.id, flags: 1 }]),
      );
      await expect(failed).rejects.toThrow();
      await storage().read(async (tx) => {
        expect(await tx.messages.topicHasMessage(realm.id, stream.id, 't')).toBe(false);
        expect(await tx.messages.maxMessageId(b!.id)).toBe(-1);
      });
    });

    it('addRecipients adds the new copies and keeps existing ones as they are, a repeat included', async () => {
      const { realm, users } = await seed(storage(), Array.from({ length: 70 }, () => ({})));
      const stream = await commit(storage(), (tx) => tx.streams.insert(newStream(realm.id)));
      const sent = await commit(storage(), (tx) => tx.messages.insert(message(realm.id, users[0]!.id, stream.id), [{ userId: users[0]!.id, flags: 1 }]));
      const added = users.map((u) => ({ userId: u.id, flags: 2 }));
      await commit(storage(), (tx) => tx.messages.addRecipients(sent.id, [...added, added[5]!]));
      const copies = await storage().read((tx) => tx.messages.recipients(sent.id));
      expect(copies).toEqual([{ userId: users[0]!.id, flags: 1 }, ...added.slice(1)]);
      await commit(storage(), (tx) => tx.messages.addRecipients(sent.id, []));
      expect(await storage().read((tx) => tx.messages.recipients(sent.id))).toEqual(copies);
    });
  });
}
