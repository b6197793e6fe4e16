import { formatRealmUserDefaults } from '../settings/realm-user-defaults.js';
import { defineSection } from './sections.js';

/** The `realm_user_settings_defaults` section: the settings new users of the realm start with. */
export const realmUserSettingsDefaultsSection = defineSection({
  key: 'realm_user_settings_defaults',
  async fetch(_ctx, tx, { realm }) {
    // Read in the snapshot: the realm was read at authentication, possibly before a change.
    return { realm_user_settings_defaults: formatRealmUserDefaults((await tx.realms.byId(realm.id)) ?? realm) };
  },
});
