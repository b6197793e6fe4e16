import { botProfiles, defaultChannelNames } from '../bots/profile.js';
import { formatBot, managesBot } from '../events/realm-bot.js';
import { defineSection } from './sections.js';

/** `realm_bots`: the active bots the user manages (human administrators: every bot of the realm). */
export const realmBotSection = defineSection({
  key: 'realm_bot',
  async fetch(_ctx, tx, { realm, user }) {
    if (!user) return { realm_bots: [] };
    const bots = (await tx.users.list(realm.id)).filter((u) => u.isBot && !u.isSystemBot && u.isActive && managesBot(user, u));
    const profiles = await botProfiles(tx, realm.id, bots.map((b) => b.id));
    const names = await defaultChannelNames(tx, realm.id, profiles.values());
    return { realm_bots: bots.map((bot) => formatBot(bot, profiles.get(bot.id)!, names)) };
  },
});
