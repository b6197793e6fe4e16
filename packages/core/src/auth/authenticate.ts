import { err, ok, type Result } from 'neverthrow';
import type { Ctx } from '../context.js';
import { ApiError, unauthorized } from '../errors.js';
import type { Realm, User } from '../storage/types.js';
import { apiKeysEqual, hasApiKeyFormat } from './api-key.js';

/**
 * Picks the realm a request is for from its host: a realm whose URL has exactly that host,
 * then a realm whose subdomain is the host's first label, then the default realm.
 */
export async function resolveRealm(ctx: Ctx, host: string | null): Promise<Result<Realm, ApiError>> {
  const realms = await ctx.storage.read((tx) => tx.realms.all());
  const wanted = (host ?? '').toLowerCase();
  const byUrl = realms.find((realm) => hostOf(realm.url) === wanted);
  const label = wanted.split('.')[0] ?? '';
  const bySubdomain = wanted.includes('.') ? realms.find((r) => r.subdomain !== '' && r.subdomain === label) : undefined;
  const fallback = realms.find((r) => r.subdomain === ctx.config.defaultRealmSubdomain);
  const realm = byUrl ?? bySubdomain ?? fallback;
  return realm ? ok(realm) : err(new ApiError('NONEXISTENT_SUBDOMAIN', 'Invalid subdomain'));
}

const hostOf = (url: string) => {
  try {
    return new URL(url).host.toLowerCase();
  } catch {
    return '';
  }
};

/**
 * Checks `email:apiKey` credentials for a realm, in the reference's order. Every failure is
 * UNAUTHORIZED (HTTP 401) with a message naming the cause. The key comparison takes constant time.
 */
export async function authenticateApiKey(
  ctx: Ctx,
  realm: Realm,
  email: string,
  apiKey: string,
): Promise<Result<User, ApiError>> {
  const key = apiKey.trim();
  if (!hasApiKeyFormat(key)) return err(unauthorized('Malformed API key'));
  const user = await ctx.storage.read((tx) => tx.users.byDeliveryEmail(realm.id, email.trim()));
  // System bots never log in: their key is never shown, and refused if it were guessed.
  if (!user || user.isSystemBot || !apiKeysEqual(user.apiKey, key)) {
    // Valid credentials of another realm's user get the reference's more helpful message.
    const elsewhere = await ctx.storage.read((tx) => tx.users.byApiKey(key));
    const sameEmail = elsewhere && elsewhere.deliveryEmail.toLowerCase() === email.trim().toLowerCase();
    if (elsewhere && sameEmail && elsewhere.realmId !== realm.id) {
      return err(unauthorized('Account is not associated with this subdomain'));
    }
    return err(unauthorized('Invalid API key'));
  }
  if (realm.deactivated) return err(unauthorized('This organization has been deactivated'));
  if (!user.isActive) return err(unauthorized('Account is deactivated'));
  if (user.isBot && user.botType === 2) return err(unauthorized('This API is not available to incoming webhook bots.'));
  return ok(user);
}
