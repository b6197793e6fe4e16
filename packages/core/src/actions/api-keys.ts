import { err, ok } from 'neverthrow';
import { isValidEmail } from '../access/user-input.js';
import { generateApiKey } from '../auth/api-key.js';
import { checkPassword, hashPassword } from '../auth/password.js';
import { isoTimestamp } from '../clock.js';
import { USER_LIMITS } from '../config.js';
import { ApiError, authenticationFailed, badRequest, rateLimited, realmDeactivated, userDeactivated, botsNotAllowed } from '../errors.js';
import { type Actor, publicOperation, userOperation } from '../operation.js';
import { applyUserChange } from '../users/changes.js';
import { FetchApiKeyParams, RegenerateApiKeyParams } from '../schemas/users.js';
import { forgetPushRegistrations } from '../push/forget.js';

/**
 * POST /fetch_api_key: exchanges an email and password for the API key. This is a login: an
 * account created through the API gets its date_joined at its first login (FL 475).
 *
 * It reveals nothing about which emails have accounts: unknown emails, deactivated users, bots
 * and users without a password cost one password derivation like everyone else, and attempts
 * are limited per email and address, per address and per email (auth/login-limits.ts).
 */
export const doFetchApiKey = publicOperation(FetchApiKeyParams, async (ctx, caller, params) => {
  const realm = caller.realm;
  const email = params.username.trim();
  if (!isValidEmail(email)) return err(badRequest('Enter a valid email address.'));
  if (!realm.emailAuthEnabled) {
    return err(new ApiError('PASSWORD_AUTH_DISABLED', 'Password authentication is disabled in this organization'));
  }
  const attempt = { realmId: realm.id, email, clientIp: caller.clientIp };
  const wait = ctx.loginLimits.retryAfter(attempt);
  if (wait > 0) return err(rateLimited(wait));
  // A flood of logins waits for a derivation in a bounded queue, never in memory without end.
  if (ctx.passwords.slots.saturated) return err(rateLimited(1));
  ctx.loginLimits.begin(attempt);
  // No stored password is longer than this (USER_LIMITS), so a longer one cannot match: it is
  // refused before any work grows with it, whichever account it names.
  if (params.password.length > 2 * USER_LIMITS.passwordMax) return err(authenticationFailed());

  const user = await ctx.storage.read((tx) => tx.users.byDeliveryEmail(realm.id, email));
  const canLogIn = user?.isActive && !user.isBot && !realm.deactivated;
  const check = await checkPassword(ctx, params.password, canLogIn ? user.passwordHash : null);
  if (user && !user.isActive) return err(userDeactivated());
  if (realm.deactivated) return err(realmDeactivated());
  if (!canLogIn || !check.matches) return err(authenticationFailed());

  ctx.loginLimits.succeeded(attempt);
  const rehashed = check.outdated ? await hashPassword(ctx, params.password) : null;
  const firstLogin = user.awaitingFirstLogin || user.isImportedStub;
  if (rehashed !== null || firstLogin) {
    await ctx.storage.transaction(async (tx) => {
      const current = await tx.users.byId(realm.id, user.id);
      // A password changed meanwhile is newer than the one just checked: it stays.
      if (rehashed !== null && current?.passwordHash === user.passwordHash) {
        await tx.users.update(realm.id, user.id, { passwordHash: rehashed });
      }
      if (current?.awaitingFirstLogin || current?.isImportedStub) {
        // First login of an API-created user or an imported stub: date_joined moves here (FL 433, 475).
        const change = { awaitingFirstLogin: false, isImportedStub: false, dateJoined: isoTimestamp(ctx.clock) };
        await applyUserChange(ctx, tx, realm, current, change);
      }
      return ok(undefined);
    });
  }
  return ok({ api_key: user.apiKey, email: user.deliveryEmail, user_id: user.id });
});

/**
 * POST /users/me/api_key/regenerate: replaces the caller's API key; the old one stops working,
 * and the push registrations of the devices it signed in go with it (FL 492).
 */
export const doRegenerateApiKey = userOperation(RegenerateApiKeyParams, async (ctx, actor: Actor) => {
  if (actor.user.isBot) return err(botsNotAllowed());
  const apiKey = generateApiKey(ctx);
  await ctx.storage.transaction(async (tx) => {
    await tx.users.update(actor.realm.id, actor.user.id, { apiKey });
    // Signed out of every device, the user's devices stop getting notifications too.
    await forgetPushRegistrations(ctx, tx, actor.user);
    return ok(undefined);
  });
  return ok({ api_key: apiKey });
});
