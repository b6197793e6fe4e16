/**
 * The custom emoji store of the storage contract, run by storage.case.ts for every driver: the
 * documented behaviour of emoji-types.ts.
 */
import type { Storage } from '@teamchat/core';
import { describe, expect, it } from 'vitest';
import { commit, seed } from './fixtures.js';

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 1, 2, 255]);

export function describeRealmEmojiStore(storage: () => Storage): void {
  describe('realm emoji', () => {
    it('insert round-trips every field and the image bytes; list and byId stay within the realm', async () => {
      const { realm, users: [author] } = await seed(storage(), [{}]);
      const { realm: other } = await seed(storage());
      const input = { realmId: realm.id, name: 'green_tick', authorId: author!.id, deactivated: false, contentType: 'image/png' };
      const emoji = await commit(storage(), (tx) => tx.realmEmoji.insert(input, PNG));
      expect(emoji).toEqual({ ...input, id: expect.any(Number) });
      const second = await commit(storage(), (tx) => tx.realmEmoji.insert({ ...input, name: 'octopus', authorId: null }, new Uint8Array([1])));
      await storage().read(async (tx) => {
        expect(await tx.realmEmoji.list(realm.id)).toEqual([emoji, second]);
        expect(await tx.realmEmoji.list(other.id)).toEqual([]);
        expect(await tx.realmEmoji.byId(realm.id, emoji.id)).toEqual(emoji);
        expect(await tx.realmEmoji.byId(other.id, emoji.id)).toBeUndefined();
        const image = await tx.realmEmoji.image(realm.id, emoji.id);
        expect(image?.contentType).toBe('image/png');
        expect(image?.bytes).toBeInstanceOf(Uint8Array);
        expect([...image!.bytes]).toEqual([...PNG]);
        expect(await tx.realmEmoji.image(other.id, emoji.id)).toBeUndefined();
        expect(await tx.realmEmoji.image(realm.id, second.id + 1000)).toBeUndefined();
      });
    });

    it('one active emoji per name: a second active one throws, a deactivated one frees the name', async () => {
      const { realm } = await seed(storage());
      const input = { realmId: realm.id, name: 'tick', authorId: null, deactivated: false, contentType: 'image/gif' };
      const first = await commit(storage(), (tx) => tx.realmEmoji.insert(input, PNG));
      await expect(commit(storage(), (tx) => tx.realmEmoji.insert(input, PNG))).rejects.toThrow();
      expect(await commit(storage(), (tx) => tx.realmEmoji.deactivate(realm.id + 1000, first.id))).toBe(false);
      expect(await commit(storage(), (tx) => tx.realmEmoji.deactivate(realm.id, first.id))).toBe(true);
      expect(await commit(storage(), (tx) => tx.realmEmoji.deactivate(realm.id, first.id))).toBe(false);
      const again = await commit(storage(), (tx) => tx.realmEmoji.insert(input, PNG));
      expect(await storage().read((tx) => tx.realmEmoji.list(realm.id))).toEqual([{ ...first, deactivated: true }, again]);
      // A deactivated emoji keeps its image: old messages still show it.
      expect(await storage().read((tx) => tx.realmEmoji.image(realm.id, first.id))).toBeDefined();
    });
  });
}
