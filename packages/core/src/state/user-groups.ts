import { apiUserGroups } from '../format/user-group.js';
import { defineSection } from './sections.js';

/** The `realm_user_groups` section: as GET /user_groups lists them; deactivated groups only for `include_deactivated_groups` clients. */
export const realmUserGroupsSection = defineSection({
  // The reference's name; `user_group`, the event type, is what this server first answered to.
  key: 'realm_user_groups',
  aliases: ['user_group'],
  eventTypes: ['user_group'],
  async fetch(_ctx, tx, { realm }, options) {
    const [groups, users] = await Promise.all([tx.userGroups.list(realm.id), tx.users.list(realm.id)]);
    return { realm_user_groups: apiUserGroups(groups, users, options.capabilities.has('include_deactivated_groups')) };
  },
});
