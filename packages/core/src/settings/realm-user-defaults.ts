/**
 * The realm's defaults for new users' settings (the reference's RealmUserDefault): every
 * personal setting except the time zone, which belongs to the person, not the organization.
 * A realm stores only the defaults it changed; a new user starts with them.
 */
import type { EmailVisibility, Realm, StoredSettings } from '../storage/types.js';
import { SETTABLE_SETTINGS, type SettableSettingName, settingFacts, USER_SETTINGS, type UserSettingName } from './user-settings.js';

const ALL = Object.keys(USER_SETTINGS) as UserSettingName[];

/** The settings the register section shows (the read-only lists included, as the reference sends them). */
const SHOWN = ALL.filter((name) => name !== 'timezone');

/** The settings PATCH /realm/user_settings_defaults may change. */
export const REALM_DEFAULTABLE_SETTINGS = SETTABLE_SETTINGS.filter((name) => name !== 'timezone') as Exclude<SettableSettingName, 'timezone'>[];

export type RealmDefaultableSetting = (typeof REALM_DEFAULTABLE_SETTINGS)[number];

/** The realm's default for one setting. */
export function realmUserDefault(realm: Pick<Realm, 'userSettingsDefaults'>, name: UserSettingName): unknown {
  const stored = realm.userSettingsDefaults[name];
  return stored === undefined ? settingFacts(name).default : stored;
}

/** The `realm_user_settings_defaults` object of register. */
export function formatRealmUserDefaults(realm: Pick<Realm, 'userSettingsDefaults'>): Record<string, unknown> {
  return Object.fromEntries(SHOWN.map((name) => [name, realmUserDefault(realm, name)]));
}

/**
 * What a new user of the realm starts with: the realm's changed defaults as the user's stored
 * settings, except those the user record holds in a field of its own (email visibility).
 */
export function newUserSettings(realm: Pick<Realm, 'userSettingsDefaults'>): { settings: StoredSettings; emailAddressVisibility: EmailVisibility } {
  const { email_address_visibility: visibility, ...settings } = realm.userSettingsDefaults;
  return { settings, emailAddressVisibility: (visibility as EmailVisibility | undefined) ?? USER_SETTINGS.email_address_visibility.default };
}
