/**
 * PATCH /realm/user_settings_defaults: administrators set the settings new users start with
 * (existing users keep theirs). Each changed default goes to every active user of the realm as
 * a realm_user_settings_defaults update event (SHAPES.md 4).
 */
import { err, ok } from 'neverthrow';
import { isAdmin } from '../access/roles.js';
import { badRequest, mustBeAdmin } from '../errors.js';
import { publishOnCommit } from '../events/publish.js';
import { type Actor, userOperation } from '../operation.js';
import { UpdateRealmUserDefaultsParams } from '../schemas/realm-user-defaults.js';
import { REALM_DEFAULTABLE_SETTINGS, realmUserDefault } from '../settings/realm-user-defaults.js';
import { type SettingDefinition, USER_SETTINGS, withSetting } from '../settings/user-settings.js';
import type { SettingValue } from '../storage/types.js';
import { transactionAs } from '../transaction.js';

/** PATCH /realm/user_settings_defaults: the settings new users start with (administrators only). */
export const doUpdateRealmUserDefaults = userOperation(UpdateRealmUserDefaultsParams, async (ctx, requester: Actor, params) => {
  if (!isAdmin(requester.user)) return err(mustBeAdmin());
  const given = REALM_DEFAULTABLE_SETTINGS.filter((name) => params[name] !== undefined);
  for (const name of given) {
    const message = (USER_SETTINGS[name] as SettingDefinition<SettingValue>).check?.(params[name] as SettingValue);
    if (message) return err(badRequest(message));
  }
  return transactionAs(ctx, requester, async (tx, actor) => {
    if (!isAdmin(actor.user)) return err(mustBeAdmin());
    const realm = actor.realm;
    let stored = realm.userSettingsDefaults;
    const changed = given.filter((name) => params[name] !== realmUserDefault(realm, name));
    if (changed.length === 0) return ok({});
    for (const name of changed) stored = withSetting(stored, name, params[name] as SettingValue);
    await tx.realms.update(realm.id, { userSettingsDefaults: stored });
    const userIds = (await tx.users.list(realm.id)).filter((u) => u.isActive).map((u) => u.id);
    for (const name of changed) {
      const event = { type: 'realm_user_settings_defaults', op: 'update', property: name, value: params[name] } as const;
      publishOnCommit(ctx, tx, { realmId: realm.id, userIds, event });
    }
    return ok({});
  });
});
