import { err, ok, type Result } from 'neverthrow';
import type { Ctx } from '../context.js';
import { ApiError, unauthorized } from '../errors.js';
import type { Realm, Tx, User } from '../storage/types.js';
import { apiKeysEqual, hasApiKeyFormat } from './api-key.js';

/**
 * Picks the realm a request is for from its host: a realm whose URL has exactly that host,
 * then a realm whose subdomain is the host's first label, then the default realm.
 */
export async function resolveRealm(ctx: Ctx, host: string | null): Promise<Result<Realm, ApiError>> {
  const realms = await ctx.storage.read((tx) => tx.realms.all());
  return pickRealm(ctx, realms, host);
}

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
  return ctx.storage.read((tx) => userForApiKey(tx, realm, email, key));
}

/** Basic credentials as sent (`email:apiKey`), not yet checked. */
export interface ApiKeyCredentials {
  email: string;
  apiKey: string;
}

/**
 * `resolveRealm`, then (given credentials) `authenticateApiKey`, with the same results and
 * errors in the same order, in one read of the store: the request path of every authenticated
 * call. Nothing is kept between calls, so a deactivated user or a changed key is refused at once.
 */
export async function authenticateRequest(
  ctx: Ctx,
  host: string | null,
  credentials: ApiKeyCredentials | null,
): Promise<Result<{ realm: Realm; user: User | null }, ApiError>> {
  const key = credentials?.apiKey.trim();
  return ctx.storage.read(async (tx) => {
    const realm = pickRealm(ctx, await tx.realms.all(), host);
    if (realm.isErr()) return err(realm.error);
    if (!credentials || key === undefined) return ok({ realm: realm.value, user: null });
    if (!hasApiKeyFormat(key)) return err(unauthorized('Malformed API key'));
    const user = await userForApiKey(tx, realm.value, credentials.email, key);
    return user.map((u) => ({ realm: realm.value, user: u }));
  });
}

function pickRealm(ctx: Ctx, realms: readonly Realm[], host: string | null): Result<Realm, ApiError> {
  const wanted = (host ?? '').toLowerCase();
  const byUrl = realms.find((realm) => realmHost(ctx, realm) === wanted);
  const label = wanted.split('.')[0] ?? '';
  const bySubdomain = wanted.includes('.') ? realms.find((r) => r.subdomain !== '' && r.subdomain === label) : undefined;
  const fallback = realms.find((r) => r.subdomain === ctx.config.defaultRealmSubdomain);
  const realm = byUrl ?? bySubdomain ?? fallback;
  return realm ? ok(realm) : err(new ApiError('NONEXISTENT_SUBDOMAIN', 'Invalid subdomain'));
}

/** The host of the realm's URL, parsed once per URL (ctx.realmMemo). */
const realmHost = (ctx: Ctx, realm: Realm) => ctx.realmMemo.get('host', realm.id, [realm.url], () => hostOf(realm.url));

const hostOf = (url: string) => {
  try {
    return new URL(url).host.toLowerCase();
  } catch {
    return '';
  }
};

/** The checks of `authenticateApiKey` after the key's format, inside a read. */
async function userForApiKey(tx: Tx, realm: Realm, email: string, key: string): Promise<Result<User, ApiError>> {
  const user = await tx.users.byDeliveryEmail(realm.id, email.trim());
  // System bots never log in: their key is never shown, and refused if it were guessed.
  if (!user || user.isSystemBot || !apiKeysEqual(user.apiKey, key)) {
    // Valid credentials of another realm's user get the reference's more helpful message.
    const elsewhere = await tx.users.byApiKey(key);
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
