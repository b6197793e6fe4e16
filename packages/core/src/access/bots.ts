/**
 * Who may create and manage bots, with the reference's rules and texts (zerver/lib/users.py:
 * access_bot_by_id, check_can_create_bot, allowed_bot_types; decorator require_member_or_admin).
 */
import { err, ok, type Result } from 'neverthrow';
import { type ApiError, badRequest, botsNotAllowed, insufficientPermission, mustBeOwner, notAllowedForGuests } from '../errors.js';
import type { Actor } from '../operation.js';
import type { Realm, Tx, User } from '../storage/types.js';
import { hasRealmPermission } from './realm-rules.js';
import { isAdmin, isGuest, isOwner } from './roles.js';
import type { GroupMember } from './system-groups.js';

/** Bot types. Embedded bots (4) need a bot runtime this server does not have (see canCreateBotType). */
export const BOT_TYPE = { generic: 1, incomingWebhook: 2, outgoingWebhook: 3, embedded: 4 } as const;

/** Outgoing webhook interfaces: 1 the generic (Zulip) format, 2 the Slack-compatible one. */
export const SERVICE_INTERFACES: readonly number[] = [1, 2];

/** A short name whose email a user (bot or person) of the realm already has. */
export const usernameInUse = () => badRequest('Username already in use');

/** A bot's (or a service's) interface outside SERVICE_INTERFACES. */
export const invalidInterfaceType = () => badRequest('Invalid interface type');

/** The bot endpoints are for members and administrators: not guests, not bots (require_member_or_admin). */
export function checkMemberOrAdmin(user: User): Result<void, ApiError> {
  if (isGuest(user)) return err(notAllowedForGuests());
  if (user.isBot) return err(botsNotAllowed());
  return ok(undefined);
}

/**
 * The bot types `user` may create. can_create_bots_group allows every type this server runs;
 * can_create_write_only_bots_group only incoming webhooks, which can send but not read.
 * Embedded bots are never in the list: they run inside the reference server with its
 * EMBEDDED_BOTS_ENABLED setting, off by default, and this server has no embedded bot runtime.
 */
export function allowedBotTypes(user: GroupMember, realm: Realm): number[] {
  if (hasRealmPermission(user, realm, 'can_create_bots_group')) return [BOT_TYPE.generic, BOT_TYPE.incomingWebhook, BOT_TYPE.outgoingWebhook];
  if (hasRealmPermission(user, realm, 'can_create_write_only_bots_group')) return [BOT_TYPE.incomingWebhook];
  return [];
}

/** check_can_create_bot: "Insufficient permission" unless one of the two realm permissions allows `botType`. */
export function checkCanCreateBot(user: GroupMember, realm: Realm, botType: number): Result<void, ApiError> {
  if (hasRealmPermission(user, realm, 'can_create_bots_group')) return ok(undefined);
  if (botType === BOT_TYPE.incomingWebhook && hasRealmPermission(user, realm, 'can_create_write_only_bots_group')) return ok(undefined);
  return err(insufficientPermission());
}

/** Whether `user` administers `target`: its owner, or an administrator of its realm. */
export const canAdminUser = (user: User, target: User) =>
  (target.botOwnerId !== null && target.botOwnerId === user.id) || (isAdmin(user) && user.realmId === target.realmId);

/**
 * A bot of the actor's realm that the actor administers (access_bot_by_id). Unknown IDs, other
 * realms' users, humans and system bots are all "No such bot". A bot allowed to create users
 * needs an owner: that permission is only ever given by the server operator.
 */
export async function accessBotById(tx: Tx, actor: Actor, botId: number): Promise<Result<User, ApiError>> {
  const target = await tx.users.byId(actor.realm.id, botId);
  if (!target?.isBot || target.isSystemBot) return err(badRequest('No such bot'));
  if (!canAdminUser(actor.user, target)) return err(insufficientPermission());
  if (target.canCreateUsers && !isOwner(actor.user)) return err(mustBeOwner());
  return ok(target);
}
