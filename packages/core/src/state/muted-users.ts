import { mutedUsersOf } from '../muting/muted-users.js';
import { defineSection } from './sections.js';

/** The `muted_users` section (SHAPES.md 2.4): `[{id, timestamp}]`, oldest mute first; `[]` for spectators. */
export const mutedUsersSection = defineSection({
  key: 'muted_users',
  async fetch(_ctx, tx, { user }) {
    return { muted_users: user ? await mutedUsersOf(tx, user) : [] };
  },
});
