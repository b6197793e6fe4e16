/** GET /realm/presence and GET /users/{user_id_or_email}/presence: presence read from memory. */
import { err, ok, type Result } from 'neverthrow';
import { checkCanAccessUser } from '../access/user-access.js';
import type { Ctx } from '../context.js';
import { unixSeconds } from '../clock.js';
import { type ApiError, badRequest, noSuchUser } from '../errors.js';
import { apiEmail } from '../format/user.js';
import { type Actor, userOperation } from '../operation.js';
import { legacyPresence, type ModernPresence, modernPresence } from '../presence/format.js';
import { realmPresence } from '../presence/memory.js';
import { presenceForViewer } from '../presence/read.js';
import { GetRealmPresenceParams, GetUserPresenceParams } from '../schemas/presence.js';
import { realmSetting } from '../settings/realm-settings.js';
import type { Realm, Tx, User } from '../storage/types.js';

/** GET /realm/presence: everyone's presence the requester may see, legacy shape, keyed by API email. */
export const getRealmPresence = userOperation(GetRealmPresenceParams, async (ctx, actor: Actor) => {
  const answer = await ctx.storage.read((tx) => presenceForViewer(ctx, tx, actor.realm, actor.user, { slim: false }));
  return ok({ presences: answer.presences, server_timestamp: answer.server_timestamp });
});

/** The longest email address (RFC 5321); anything longer names no user. */
const MAX_EMAIL_LENGTH = 254;

/**
 * The realm's active user named by ID or by API email (the reference's get_active_user: the
 * address others see, which is a stand-in `user{id}@host` for users who hide theirs).
 */
async function activeUserByIdOrEmail(tx: Tx, realm: Realm, key: string): Promise<User | undefined> {
  let user: User | undefined;
  if (/^[0-9]{1,15}$/.test(key)) user = await tx.users.byId(realm.id, Number(key));
  else if (key.length <= MAX_EMAIL_LENGTH) {
    // The address is either someone's real one (when shown) or a stand-in naming their ID.
    const standIn = /^user([0-9]{1,15})@/i.exec(key);
    const candidates = [await tx.users.byDeliveryEmail(realm.id, key), standIn ? await tx.users.byId(realm.id, Number(standIn[1])) : undefined];
    user = candidates.find((candidate) => candidate && apiEmail(realm, candidate).toLowerCase() === key.toLowerCase());
  }
  return user?.isActive && !user.isSystemBot ? user : undefined;
}

/** GET /users/{user_id_or_email}/presence's record in the legacy shape: no client names, offline once stale. */
export interface ApiUserPresence {
  aggregated: { status: 'active' | 'idle' | 'offline'; timestamp: number };
  website: { status: 'active' | 'idle'; timestamp: number };
}

/** What the per-user endpoint answers: the legacy shape without client names, offline once stale. */
async function userPresenceRecord(
  ctx: Ctx,
  realm: Realm,
  user: User,
  slim: boolean,
  key: string,
): Promise<Result<ModernPresence | ApiUserPresence, ApiError>> {
  const entry = (await realmPresence(ctx, realm.id)).entries.get(user.id);
  // A realm that disabled presence shows nobody's, here as everywhere else.
  if (!entry || realmSetting(realm, 'presence_disabled')) return err(badRequest(`No presence data for ${key}`));
  if (slim) return ok(modernPresence(entry, user));
  const { aggregated, website } = legacyPresence(entry, user);
  const stale = unixSeconds(ctx.clock) - aggregated.timestamp > ctx.config.presenceOfflineThresholdSeconds;
  return ok({
    aggregated: { status: stale ? 'offline' : aggregated.status, timestamp: aggregated.timestamp },
    website: { status: website.status, timestamp: website.timestamp },
  });
}

/**
 * GET /users/{user_id_or_email}/presence: one user's presence, for embedding elsewhere. Bots
 * have none; a user the requester may not access is "Insufficient permission".
 */
export const getUserPresence = userOperation(GetUserPresenceParams, async (ctx, actor: Actor, params) => {
  const target = await ctx.storage.read(async (tx): Promise<Result<User, ApiError>> => {
    const user = await activeUserByIdOrEmail(tx, actor.realm, params.user_id_or_email);
    if (!user) return err(noSuchUser());
    if (user.isBot) return err(badRequest('Presence is not supported for bot users.'));
    return checkCanAccessUser(tx, actor.realm, actor.user, user);
  });
  if (target.isErr()) return err(target.error);
  const presence = await userPresenceRecord(ctx, actor.realm, target.value, params.slim_presence, params.user_id_or_email);
  return presence.map((record) => ({ presence: record }));
});
