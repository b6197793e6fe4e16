/** The bot store of the storage contract (bot-types.ts), run by storage.case.ts for every driver. */
import { type BotProfile, defaultBotProfile, type Storage } from '@teamchat/core/internal';
import { describe, expect, it } from 'vitest';
import { commit, seed } from './fixtures.js';

export function describeBotStore(storage: () => Storage): void {
  describe('bots', () => {
    it('stores one whole profile per bot, replaces it, and lists only stored bots of the realm', async () => {
      const { realm, users: [human, bot, other] } = await seed(storage(), [{}, { isBot: true, botType: 3 }, { isBot: true, botType: 1 }]);
      const profile: BotProfile = {
        ...defaultBotProfile(bot!.id),
        defaultSendingStreamId: 7,
        service: { name: 'echo', baseUrl: 'http://127.0.0.1:9/hook', interface: 2, token: 't0k' },
        configData: { key: 'value' },
      };
      expect(await commit(storage(), (tx) => tx.bots.put(realm.id, profile))).toBe(true);
      // A human, an unknown ID and another realm's ID write nothing.
      expect(await commit(storage(), (tx) => tx.bots.put(realm.id, defaultBotProfile(human!.id)))).toBe(false);
      expect(await commit(storage(), (tx) => tx.bots.put(realm.id, defaultBotProfile(999_999)))).toBe(false);
      expect(await commit(storage(), (tx) => tx.bots.put(realm.id + 1000, defaultBotProfile(other!.id)))).toBe(false);

      await storage().read(async (tx) => {
        expect(await tx.bots.profiles(realm.id, [bot!.id, other!.id, human!.id, 999_999])).toEqual([profile]);
        expect(await tx.bots.profiles(realm.id + 1000, [bot!.id])).toEqual([]);
        expect(await tx.bots.profiles(realm.id, [])).toEqual([]);
      });

      const replaced: BotProfile = { ...defaultBotProfile(bot!.id), defaultAllPublicStreams: true };
      expect(await commit(storage(), (tx) => tx.bots.put(realm.id, replaced))).toBe(true);
      await commit(storage(), (tx) => tx.bots.put(realm.id, { ...defaultBotProfile(other!.id), defaultEventsRegisterStreamId: 3 }));
      await storage().read(async (tx) => {
        expect(await tx.bots.profiles(realm.id, [other!.id, bot!.id])).toEqual([
          replaced,
          { ...defaultBotProfile(other!.id), defaultEventsRegisterStreamId: 3 },
        ]);
      });
    });
  });
}
