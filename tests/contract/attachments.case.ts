/**
 * The attachment store of the storage contract, run by storage.case.ts for every driver: the
 * documented behaviour of attachment-types.ts.
 */
import type { NewAttachment, Storage, Tx } from '@teamchat/core';
import { describe, expect, it } from 'vitest';
import { commit, seed } from './fixtures.js';

const upload = (realmId: number, ownerId: number, name: string, overrides: Partial<NewAttachment> = {}): NewAttachment => ({
  realmId,
  ownerId,
  pathId: `${realmId}/ab/${name}-random/${name}`,
  fileName: name,
  size: 10,
  contentType: 'text/plain',
  createTime: 1_700_000_000,
  ...overrides,
});

const message = async (tx: Tx, realmId: number, senderId: number) =>
  tx.messages.insert(
    {
      realmId, senderId, type: 'private', streamId: null, topic: '', dmKey: String(senderId), content: 'x', renderedContent: '<p>x</p>',
      dateSent: 1_700_000_000, sendingClient: 'test', lastEditTime: null, lastMovedTime: null, editHistory: [],
      hasLink: false, hasImage: false, hasAttachment: false, isMeMessage: false,
    },
    [{ userId: senderId, flags: 0 }],
  );

export function describeAttachmentStore(storage: () => Storage): void {
  describe('attachments', () => {
    it('insert round-trips every field; lookups by ID, path and owner stay within the realm', async () => {
      const { realm, users: [owner, other] } = await seed(storage(), [{}, {}]);
      const { realm: elsewhere, users: [stranger] } = await seed(storage(), [{}]);
      const a = await commit(storage(), (tx) => tx.attachments.insert(upload(realm.id, owner!.id, 'a.txt')));
      expect(a).toEqual({ ...upload(realm.id, owner!.id, 'a.txt'), id: expect.any(Number) });
      const b = await commit(storage(), (tx) => tx.attachments.insert(upload(realm.id, owner!.id, 'b.png', { size: 32, contentType: 'image/png' })));
      const c = await commit(storage(), (tx) => tx.attachments.insert(upload(realm.id, other!.id, 'c.txt', { size: 5 })));
      const d = await commit(storage(), (tx) => tx.attachments.insert(upload(elsewhere.id, stranger!.id, 'd.txt', { size: 1000 })));
      await storage().read(async (tx) => {
        expect(await tx.attachments.byId(realm.id, a.id)).toEqual(a);
        expect(await tx.attachments.byId(elsewhere.id, a.id)).toBeUndefined();
        expect(await tx.attachments.byPathId(realm.id, b.pathId)).toEqual(b);
        expect(await tx.attachments.byPathId(realm.id, d.pathId)).toBeUndefined();
        expect(await tx.attachments.byPathIds(realm.id, [c.pathId, 'nope', a.pathId, d.pathId])).toEqual([a, c]);
        expect(await tx.attachments.byPathIds(realm.id, [])).toEqual([]);
        expect(await tx.attachments.listByOwner(realm.id, owner!.id)).toEqual([a, b]);
        expect(await tx.attachments.listByOwner(elsewhere.id, owner!.id)).toEqual([]);
        expect(await tx.attachments.spaceUsed(realm.id)).toBe(47);
        expect(await tx.attachments.spaceUsed(elsewhere.id)).toBe(1000);
      });
    });

    it('a path_id is unique across realms', async () => {
      const { realm, users: [owner] } = await seed(storage(), [{}]);
      await commit(storage(), (tx) => tx.attachments.insert(upload(realm.id, owner!.id, 'a.txt')));
      await expect(commit(storage(), (tx) => tx.attachments.insert(upload(realm.id, owner!.id, 'a.txt')))).rejects.toThrow();
    });

    it('links: link is idempotent, unlink removes, deleting a message or an attachment drops its links', async () => {
      const { realm, users: [owner] } = await seed(storage(), [{}]);
      const [a, b, m1, m2] = await commit(storage(), async (tx) => [
        await tx.attachments.insert(upload(realm.id, owner!.id, 'a.txt')),
        await tx.attachments.insert(upload(realm.id, owner!.id, 'b.txt')),
        await message(tx, realm.id, owner!.id),
        await message(tx, realm.id, owner!.id),
      ] as const);
      await commit(storage(), async (tx) => {
        await tx.attachments.link(m2.id, [a.id, b.id]);
        await tx.attachments.link(m1.id, [a.id]);
        await tx.attachments.link(m1.id, [a.id]);
      });
      await storage().read(async (tx) => {
        expect(await tx.attachments.messageIds([a.id, b.id, 999_999])).toEqual(new Map([[a.id, [m1.id, m2.id]], [b.id, [m2.id]], [999_999, []]]));
        expect(await tx.attachments.linkedTo([m1.id, m2.id])).toEqual([a.id, b.id]);
        expect(await tx.attachments.linkedTo([m1.id])).toEqual([a.id]);
        expect(await tx.attachments.linkedTo([])).toEqual([]);
      });
      await commit(storage(), (tx) => tx.attachments.unlink(m2.id, [b.id]));
      expect(await storage().read((tx) => tx.attachments.linkedTo([m2.id]))).toEqual([a.id]);
      await commit(storage(), (tx) => tx.messages.delete(realm.id, [m1.id]));
      expect(await storage().read((tx) => tx.attachments.messageIds([a.id]))).toEqual(new Map([[a.id, [m2.id]]]));
      expect(await commit(storage(), (tx) => tx.attachments.delete(realm.id + 1000, a.id))).toBe(false);
      expect(await commit(storage(), (tx) => tx.attachments.delete(realm.id, a.id))).toBe(true);
      expect(await commit(storage(), (tx) => tx.attachments.delete(realm.id, a.id))).toBe(false);
      expect(await storage().read((tx) => tx.attachments.linkedTo([m2.id]))).toEqual([]);
    });

    it('unusedBefore lists unlinked attachments of every realm created before the time', async () => {
      const { realm, users: [owner] } = await seed(storage(), [{}]);
      const { realm: elsewhere, users: [stranger] } = await seed(storage(), [{}]);
      const [old, linked, recent, foreign] = await commit(storage(), async (tx) => {
        const rows = [
          await tx.attachments.insert(upload(realm.id, owner!.id, 'old.txt', { createTime: 100 })),
          await tx.attachments.insert(upload(realm.id, owner!.id, 'linked.txt', { createTime: 100 })),
          await tx.attachments.insert(upload(realm.id, owner!.id, 'recent.txt', { createTime: 200 })),
          await tx.attachments.insert(upload(elsewhere.id, stranger!.id, 'foreign.txt', { createTime: 150 })),
        ] as const;
        await tx.attachments.link((await message(tx, realm.id, owner!.id)).id, [rows[1].id]);
        return rows;
      });
      expect(linked).toBeDefined();
      expect(await storage().read((tx) => tx.attachments.unusedBefore(200))).toEqual([old, foreign]);
      expect(await storage().read((tx) => tx.attachments.unusedBefore(201))).toEqual([old, recent, foreign]);
      expect(await storage().read((tx) => tx.attachments.unusedBefore(100))).toEqual([]);
    });
  });
}
