import { err, ok } from 'neverthrow';
import { isValidEmail } from '../access/user-input.js';
import { generateApiKey } from '../auth/api-key.js';
import { verifyPassword } from '../auth/password.js';
import { isoTimestamp } from '../clock.js';
import { ApiError, authenticationFailed, badRequest, rateLimited, realmDeactivated, userDeactivated, botsNotAllowed } from '../errors.js';
import { type Actor, publicOperation, userOperation } from '../operation.js';
import { applyUserChange } from './user-changes.js';
import { FetchApiKeyParams, RegenerateApiKeyParams } from '../schemas/users.js';
import { forgetPushRegistrations } from '../push/forget.js';

/**
 * POST /fetch_api_key: exchanges an email and password for the API key. This is a login: an
 * account created through the API gets its date_joined at its first login (FL 475).
 */
export const doFetchApiKey = publicOperation(FetchApiKeyParams, async (ctx, caller, params) => {
  const realm = caller.realm;
  const email = params.username.trim();
  if (!isValidEmail(email)) return err(badRequest('Enter a valid email address.'));
  if (!realm.emailAuthEnabled) {
    return err(new ApiError('PASSWORD_AUTH_DISABLED', 'Password authentication is disabled in this organization'));
  }
  const attempts = `${realm.id}:${email.toLowerCase()}`;
  const wait = ctx.loginFailures.retryAfter(attempts);
  if (wait > 0) return err(rateLimited(wait));
  const user = await ctx.storage.read((tx) => tx.users.byDeliveryEmail(realm.id, email));
  if (user && !user.isActive) return err(userDeactivated());
  if (realm.deactivated) return err(realmDeactivated());
  if (!user || user.isBot || !(await verifyPassword(params.password, user.passwordHash))) {
    ctx.loginFailures.record(attempts);
    return err(authenticationFailed());
  }
  if (user.awaitingFirstLogin || user.isImportedStub) {
    // First login of an API-created user or an imported stub: date_joined moves here (FL 433, 475).
    const firstLogin = { awaitingFirstLogin: false, isImportedStub: false, dateJoined: isoTimestamp(ctx.clock) };
    await ctx.storage.transaction(async (tx) => {
      const current = await tx.users.byId(realm.id, user.id);
      if (current?.awaitingFirstLogin || current?.isImportedStub) await applyUserChange(ctx, tx, realm, current, firstLogin);
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
