import { err, ok, type Result } from 'neverthrow';
import { checkFullName } from '../access/user-input.js';
import { checkPassword as checkOldPassword, hashPassword } from '../auth/password.js';
import { USER_LIMITS } from '../config.js';
import type { Ctx } from '../context.js';
import { type ApiError, badRequest, botsNotAllowed } from '../errors.js';
import { publishOnCommit } from '../events/publish.js';
import type { UserSettingsEvent } from '../events/union/personal.js';
import { type Actor, userOperation } from '../operation.js';
import { type UpdateSettingsInput, UpdateSettingsParams } from '../schemas/settings.js';
import { languageName } from '../settings/choices.js';
import {
  SETTABLE_SETTINGS,
  type SettableSettingName,
  type SettingDefinition,
  USER_SETTINGS,
  userSetting,
  withSetting,
} from '../settings/user-settings.js';
import { applyPresenceEnabled } from '../presence/enabled.js';
import type { Realm, SettingValue, Tx, User } from '../storage/types.js';
import { transactionAs } from '../transaction.js';
import { applyUserChange } from '../users/changes.js';

/** A setting a request changes, and its new value. */
export type Change = { name: SettableSettingName; value: SettingValue };

/** The order in which the reference applies settings: alphabetical, the time zone last. */
const APPLY_ORDER: readonly SettableSettingName[] = [
  ...[...SETTABLE_SETTINGS].filter((name) => name !== 'timezone').sort(),
  'timezone',
];

/**
 * Changing the login email needs a confirmation link mailed to the new address and a page that
 * takes it; this server has neither, so it answers as a reference server whose organization
 * disabled email changes.
 */
const EMAIL_CHANGES_DISABLED = 'Email address changes are disabled in this organization.';

/**
 * PATCH /settings: the acting user's personal settings, full name, password and email.
 *
 * Everything is checked before anything is written, in the reference's order (parameters,
 * then the setting values, the password, the email, the name), and the changes commit
 * together: a request either applies all its changes or none (the reference applies them one
 * by one). Each setting that changes sends `user_settings` op `update` to the user's own
 * queues; the name, time zone and email visibility also send their `realm_user` updates.
 */
export const doUpdateSettings = userOperation(UpdateSettingsParams, async (ctx, requester: Actor, params) => {
  if (requester.user.isBot) return err(botsNotAllowed());
  const checked = checkSettingValues(params);
  if (checked.isErr()) return err(checked.error);

  const password = await checkPasswordChange(ctx, requester, params);
  if (password.isErr()) return err(password.error);
  if (params.email !== undefined && params.email.trim() !== requester.user.deliveryEmail) {
    return err(badRequest(EMAIL_CHANGES_DISABLED));
  }
  if (params.full_name !== undefined && params.full_name !== requester.user.fullName) {
    const fullName = checkFullName(params.full_name);
    if (fullName.isErr()) return err(fullName.error);
  }
  // scrypt is slow: hash before the transaction, which must not hold the store while it runs.
  const passwordHash = password.value ? await hashPassword(ctx, password.value.newPassword) : null;

  // Set inside the transaction when presence_enabled changes: presence follows once it committed.
  const committed: { presenceEnabled?: { realm: Realm; user: User; value: boolean } } = {};
  const result = await transactionAs(ctx, requester, async (tx, actor) => {
    let user = actor.user;
    if (password.value && passwordHash !== null) {
      // The old password was checked against the hash read at authentication; a change that
      // committed since then makes that check stale.
      if (user.passwordHash !== password.value.verifiedHash) return err(badRequest('Wrong password!'));
      await tx.users.update(user.realmId, user.id, { passwordHash });
    }
    if (params.email !== undefined && params.email.trim() !== user.deliveryEmail) {
      return err(badRequest(EMAIL_CHANGES_DISABLED));
    }
    if (params.full_name !== undefined && params.full_name !== user.fullName) {
      const fullName = checkFullName(params.full_name);
      if (fullName.isErr()) return err(fullName.error);
      user = await applyUserChange(ctx, tx, actor.realm, user, { fullName: fullName.value });
    }
    const changes = changedSettings(user, params);
    await applySettingChanges(ctx, tx, actor, user, changes);
    const presence = changes.find((change) => change.name === 'presence_enabled');
    if (presence) committed.presenceEnabled = { realm: actor.realm, user, value: presence.value as boolean };
    return ok({});
  });
  const change = committed.presenceEnabled;
  if (result.isOk() && change) await applyPresenceEnabled(ctx, change.realm, change.user, change.value);
  return result;
});

/**
 * The reference's checks of setting values that run once every parameter has parsed, in its
 * order: the language, the notification sound, the email batching period.
 */
function checkSettingValues(params: UpdateSettingsInput): Result<void, ApiError> {
  for (const name of ['default_language', 'notification_sound', 'email_notifications_batching_period_seconds'] as const) {
    const value = params[name];
    const definition = USER_SETTINGS[name] as SettingDefinition<SettingValue>;
    const message = value === undefined ? null : definition.check?.(value);
    if (message) return err(badRequest(message));
  }
  return ok(undefined);
}

interface PasswordChange {
  newPassword: string;
  /** The stored hash the old password matched. */
  verifiedHash: string | null;
}

/**
 * Checks old_password and new_password, when a new password is asked for. old_password is a
 * guess like a login's: it counts against the same limits (auth/login-limits.ts), as the
 * reference runs it through its rate-limited authentication.
 */
async function checkPasswordChange(
  ctx: Ctx,
  { user, clientIp }: Actor,
  params: UpdateSettingsInput,
): Promise<Result<PasswordChange | null, ApiError>> {
  if (params.new_password === undefined) return ok(null);
  // No stored password is longer than passwordMax, so a longer old_password is wrong without hashing it.
  const old = params.old_password;
  if (old === undefined) return err(badRequest('Wrong password!'));
  const attempt = { realmId: user.realmId, email: user.deliveryEmail, clientIp };
  const wait = ctx.loginLimits.retryAfter(attempt);
  if (wait > 0) return err(badRequest(`You're making too many attempts! Try again in ${Math.trunc(wait)} seconds.`));
  ctx.loginLimits.begin(attempt);
  // No stored password is longer than passwordMax, so a longer old_password is wrong without hashing it.
  if (old.length > 2 * USER_LIMITS.passwordMax || !(await checkOldPassword(ctx, old, user.passwordHash)).matches) {
    return err(badRequest('Wrong password!'));
  }
  ctx.loginLimits.succeeded(attempt);
  const length = [...params.new_password].length;
  if (length < USER_LIMITS.passwordMin || length > USER_LIMITS.passwordMax) {
    return err(badRequest('New password is too weak!'));
  }
  return ok({ newPassword: params.new_password, verifiedHash: user.passwordHash });
}

/** The requested settings whose value differs from the user's, in the reference's order. */
function changedSettings(user: User, params: UpdateSettingsInput): Change[] {
  const changes: Change[] = [];
  for (const name of APPLY_ORDER) {
    const value = params[name] as SettingValue | undefined;
    if (value !== undefined && value !== userSetting(user, name)) changes.push({ name, value });
  }
  return changes;
}

/**
 * Writes the changed settings and announces each: `user_settings` to the user, then the
 * `realm_user` updates of a setting held on the user record (time zone, email visibility).
 */
export async function applySettingChanges(ctx: Ctx, tx: Tx, actor: Actor, user: User, changes: readonly Change[]): Promise<void> {
  let settings = user.settings;
  for (const { name, value } of changes) {
    const event: UserSettingsEvent = { type: 'user_settings', op: 'update', property: name, value };
    if (name === 'default_language') event.language_name = languageName(value as string);
    publishOnCommit(ctx, tx, { realmId: actor.realm.id, userIds: [user.id], event });

    const field = (USER_SETTINGS[name] as SettingDefinition<SettingValue>).field;
    if (field) user = await applyUserChange(ctx, tx, actor.realm, user, { [field]: value });
    else settings = withSetting(settings, name, value);
  }
  if (settings !== user.settings) await tx.users.update(user.realmId, user.id, { settings });
}
