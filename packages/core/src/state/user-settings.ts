import {
  formatUserSettings,
  LEGACY_TOP_LEVEL_SETTINGS,
  type LegacyTopLevelSettingName,
  type UserSettingValues,
} from '../settings/user-settings.js';
import { defineSection } from './sections.js';

/**
 * The `user_settings` section (SHAPES.md 2.9): the requester's settings, the defaults for a
 * spectator. Clients without the `user_settings_object` capability also get the pre-FL 89
 * settings at the top level, as the reference sends them.
 */
export const userSettingsSection = defineSection({
  key: 'user_settings',
  // The pre-FL 89 names of the legacy keys below.
  aliases: ['update_display_settings', 'update_global_notifications'],
  async fetch(_ctx, tx, { realm, user: caller }, options) {
    // Read in the snapshot: the caller was read at authentication, possibly before a settings
    // change whose event no queue of this registration will see.
    const user = caller ? ((await tx.users.byId(realm.id, caller.id)) ?? caller) : null;
    const settings = formatUserSettings(user);
    if (options.capabilities.has('user_settings_object')) return { user_settings: settings };
    const legacy: Partial<Pick<UserSettingValues, LegacyTopLevelSettingName | 'timezone'>> = {};
    for (const name of LEGACY_TOP_LEVEL_SETTINGS) Object.assign(legacy, { [name]: settings[name] });
    legacy.timezone = settings.timezone;
    return { user_settings: settings, ...legacy };
  },
});
