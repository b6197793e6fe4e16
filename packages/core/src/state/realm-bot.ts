import { isAdmin } from '../access/roles.js';
import { formatBot } from '../events/realm-user.js';
import { defineStateSection } from './sections.js';

/** `realm_bots`: the active bots the user manages (administrators: every bot of the realm). */
defineStateSection({
  key: 'realm_bot',
  async fetch(_ctx, tx, { realm, user }) {
    if (!user) return { realm_bots: [] };
    const bots = (await tx.users.list(realm.id)).filter(
      (u) => u.isBot && !u.isSystemBot && u.isActive && (isAdmin(user) || u.botOwnerId === user.id),
    );
    return { realm_bots: bots.map(formatBot) };
  },
});
