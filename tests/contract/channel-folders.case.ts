/**
 * The channel-folder store of the storage contract (channel-folder-types.ts), and the message
 * store's retention lookup, run by storage.case.ts for every driver.
 */
import type { NewChannelFolder, NewMessage, Storage } from '@teamchat/core';
import { describe, expect, it } from 'vitest';
import { commit, newStream, seed } from './fixtures.js';

const folder = (realmId: number, name: string, overrides: Partial<NewChannelFolder> = {}): NewChannelFolder => ({
  realmId,
  name,
  description: '',
  renderedDescription: '',
  creatorId: null,
  dateCreated: 1_700_000_000,
  isArchived: false,
  ...overrides,
});

export function describeChannelFolderStore(storage: () => Storage): void {
  describe('channelFolders', () => {
    it('inserts last, refuses names taken in any case, updates, reorders, stays within the realm', async () => {
      const { realm } = await seed(storage());
      const { realm: elsewhere } = await seed(storage());
      const insert = (realmId: number, name: string, overrides?: Partial<NewChannelFolder>) =>
        commit(storage(), (tx) => tx.channelFolders.insert(folder(realmId, name, overrides)));

      const a = (await insert(realm.id, 'Frontend', { description: 'd', renderedDescription: '<p>d</p>' }))!;
      expect(a).toEqual({ ...folder(realm.id, 'Frontend', { description: 'd', renderedDescription: '<p>d</p>' }), id: a.id, order: 0 });
      const b = (await insert(realm.id, 'Backend'))!;
      expect(b.order).toBe(1);
      expect(await insert(realm.id, 'FRONTEND')).toBeUndefined();
      expect(await insert(realm.id, 'ärger')).toBeDefined();
      expect(await insert(realm.id, 'ÄRGER')).toBeUndefined();
      // Another realm may use the same name.
      const c = (await insert(elsewhere.id, 'Frontend'))!;
      expect(c.order).toBe(0);

      expect(await commit(storage(), (tx) => tx.channelFolders.update(realm.id, a.id, { name: 'backend' }))).toBe(false);
      expect(await commit(storage(), (tx) => tx.channelFolders.update(realm.id, a.id, { name: 'Web', isArchived: true }))).toBe(true);
      expect(await commit(storage(), (tx) => tx.channelFolders.update(realm.id, a.id, { description: 'x', renderedDescription: '<p>x</p>' }))).toBe(true);
      expect(await commit(storage(), (tx) => tx.channelFolders.update(elsewhere.id, a.id, { name: 'Stolen' }))).toBe(false);
      expect(await commit(storage(), (tx) => tx.channelFolders.update(realm.id, 999_999, { name: 'None' }))).toBe(false);
      // The old name is free again, case-insensitively.
      expect(await insert(realm.id, 'frontend')).toBeDefined();

      const all = await storage().read((tx) => tx.channelFolders.list(realm.id));
      await commit(storage(), (tx) => tx.channelFolders.reorder(realm.id, [...all].reverse().map((f) => f.id)));
      await storage().read(async (tx) => {
        const listed = await tx.channelFolders.list(realm.id);
        expect(listed.map((f) => f.name)).toEqual(['frontend', 'ärger', 'Backend', 'Web']);
        expect(listed.map((f) => f.order)).toEqual([0, 1, 2, 3]);
        expect(await tx.channelFolders.byId(realm.id, a.id)).toMatchObject({ name: 'Web', isArchived: true, description: 'x', renderedDescription: '<p>x</p>' });
        expect(await tx.channelFolders.byId(realm.id, c.id)).toBeUndefined();
        expect((await tx.channelFolders.list(elsewhere.id)).map((f) => f.name)).toEqual(['Frontend']);
      });
    });

    it('concurrent inserts of one name: exactly one caller receives the folder', async () => {
      const { realm } = await seed(storage());
      const results = await Promise.all(
        ['Ops', 'OPS', 'ops'].map((name) => commit(storage(), (tx) => tx.channelFolders.insert(folder(realm.id, name)))),
      );
      expect(results.filter((r) => r !== undefined)).toHaveLength(1);
    });
  });

  describe('messages.idsSentBefore', () => {
    it('lists a channel’s messages sent before a time, oldest first, limited, within the realm', async () => {
      const { realm, users: [sender] } = await seed(storage(), [{}]);
      const { realm: elsewhere } = await seed(storage());
      const [stream, other] = await commit(storage(), async (tx) => [
        await tx.streams.insert(newStream(realm.id)),
        await tx.streams.insert(newStream(realm.id)),
      ]);
      const message = (streamId: number, dateSent: number): NewMessage => ({
        realmId: realm.id, senderId: sender!.id, type: 'stream', streamId, topic: 't', dmKey: null, content: 'c', renderedContent: '<p>c</p>',
        dateSent, sendingClient: 'test', lastEditTime: null, lastMovedTime: null, editHistory: [], hasLink: false, hasImage: false,
        hasAttachment: false, isMeMessage: false,
      });
      const ids = await commit(storage(), async (tx) => {
        const out: number[] = [];
        for (const [streamId, at] of [[stream!.id, 100], [other!.id, 100], [stream!.id, 200], [stream!.id, 300]] as const) {
          out.push((await tx.messages.insert(message(streamId, at), [])).id);
        }
        return out;
      });
      await storage().read(async (tx) => {
        expect(await tx.messages.idsSentBefore(realm.id, stream!.id, 300, 10)).toEqual([ids[0], ids[2]]);
        expect(await tx.messages.idsSentBefore(realm.id, stream!.id, 301, 1)).toEqual([ids[0]]);
        expect(await tx.messages.idsSentBefore(realm.id, stream!.id, 100, 10)).toEqual([]);
        expect(await tx.messages.idsSentBefore(elsewhere.id, stream!.id, 1000, 10)).toEqual([]);
      });
    });
  });
}
