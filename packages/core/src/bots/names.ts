/** A bot's names: its email built from the short name, and the check that its name is free. */
import { err, ok, type Result } from 'neverthrow';
import { isValidEmail } from '../access/user-input.js';
import { type ApiError, badRequest } from '../errors.js';
import { codePointCount } from '../text/length.js';
import type { Realm, Tx } from '../storage/types.js';
import { realmHostname } from '../format/realm-host.js';

/** An RFC 5322 dot-atom: the local parts the reference's Address(...) accepts unquoted. */
const DOT_ATOM = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*$/;

/**
 * The bot's email, `<short_name>-bot@<realm host>`, as the reference builds it (the realm's
 * host is its bot domain when no fake email domain is configured). A blank short name, or one
 * that makes no valid address, is "Bad name or username".
 */
export function botEmail(realm: Realm, rawShortName: string): Result<{ shortName: string; email: string }, ApiError> {
  const shortName = rawShortName.trim();
  const bad = err(badRequest('Bad name or username'));
  if (shortName === '' || !DOT_ATOM.test(`${shortName}-bot`)) return bad;
  const email = `${shortName}-bot@${realmHostname(realm.url)}`;
  return isValidEmail(email) ? ok({ shortName, email }) : bad;
}

/**
 * check_bot_name_available: no active user (person or bot) of the realm may already have the
 * name. Not a guarantee of uniqueness (reactivating a bot can make a duplicate), only a guard
 * against confusing two bots by accident.
 */
export async function checkBotNameAvailable(
  tx: Tx,
  realmId: number,
  fullName: string,
  options: { activation: boolean; exceptId?: number },
): Promise<Result<void, ApiError>> {
  const name = fullName.trim();
  const taken = (await tx.users.list(realmId)).some((u) => u.isActive && u.fullName === name && u.id !== options.exceptId);
  if (!taken) return ok(undefined);
  if (options.activation) {
    return err(badRequest(`There is already an active bot named "${fullName}" in this organization. To reactivate this bot, you must rename or deactivate the other one first.`));
  }
  return err(badRequest('Name is already in use.'));
}

/** BOT_CONFIG_SIZE_LIMIT of the reference: the total characters of a bot's config keys and values. */
export const BOT_CONFIG_SIZE_LIMIT = 10_000;

/** A bot's config data after merging `update`, or the reference's error when it grows too big. */
export function mergeConfigData(current: Readonly<Record<string, string>>, update: Readonly<Record<string, string>>): Result<Record<string, string>, ApiError> {
  const merged = { ...current, ...update };
  const size = Object.entries(merged).reduce((n, [k, v]) => n + codePointCount(k) + codePointCount(v), 0);
  if (size > BOT_CONFIG_SIZE_LIMIT) return err(badRequest('Maximum storage limit exceeded.'));
  return ok(merged);
}
