/** Input of PATCH /settings (zulip-openapi.yaml `update_settings_request`). */
import type { Struct } from 'superstruct';
import { optional, type } from './known-structs.js';
import {
  SETTABLE_SETTINGS,
  type SettableSettingName,
  USER_SETTINGS,
  type UserSettingValues,
} from '../settings/user-settings.js';
import { type FieldStruct, Str } from './wire.js';

/** The account parameters that travel with the settings; raw strings. */
const ACCOUNT_PARAMS = { full_name: Str, email: Str, old_password: Str, new_password: Str };

export type UpdateSettingsInput = { [K in keyof typeof ACCOUNT_PARAMS]?: string } & {
  [K in SettableSettingName]?: UserSettingValues[K];
};

/**
 * Every parameter is optional. They are checked in alphabetical order, as the reference (whose
 * view declares them alphabetically) does, so a request with several bad values gets the same
 * first error.
 */
export const UpdateSettingsParams = (() => {
  const entries: [string, FieldStruct][] = [
    ...Object.entries(ACCOUNT_PARAMS),
    ...SETTABLE_SETTINGS.map((name) => [name, USER_SETTINGS[name].param] as [string, FieldStruct]),
  ];
  entries.sort(([a], [b]) => (a < b ? -1 : 1));
  const schema = Object.fromEntries(entries.map(([name, struct]) => [name, optional(struct)]));
  return type(schema) as unknown as Struct<UpdateSettingsInput, Record<string, FieldStruct>>;
})();
