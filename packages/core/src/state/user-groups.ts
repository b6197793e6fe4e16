import { formatUserGroup } from '../format/user-group.js';
import { defineStateSection } from './sections.js';

/** The `realm_user_groups` section: the realm's user groups as GET /user_groups lists them. */
defineStateSection({
  key: 'user_group',
  async fetch(_ctx, tx, { realm }) {
    return { realm_user_groups: (await tx.userGroups.list(realm.id)).filter((g) => !g.deactivated).map(formatUserGroup) };
  },
});
