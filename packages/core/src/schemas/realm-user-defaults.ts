/** Input of PATCH /realm/user_settings_defaults: each defaultable setting, parsed as PATCH /settings parses it. */
import type { Struct } from 'superstruct';
import { optional, type } from './known-structs.js';
import { REALM_DEFAULTABLE_SETTINGS, type RealmDefaultableSetting } from '../settings/realm-user-defaults.js';
import { USER_SETTINGS, type UserSettingValues } from '../settings/user-settings.js';
import type { FieldStruct } from './wire.js';

export type UpdateRealmUserDefaultsInput = { [K in RealmDefaultableSetting]?: UserSettingValues[K] };

/** Checked in alphabetical order, as the reference's view declares them. */
export const UpdateRealmUserDefaultsParams = type(
  Object.fromEntries(
    [...REALM_DEFAULTABLE_SETTINGS].sort().map((name) => [name, optional(USER_SETTINGS[name].param as FieldStruct)]),
  ),
) as unknown as Struct<UpdateRealmUserDefaultsInput, Record<string, FieldStruct>>;
