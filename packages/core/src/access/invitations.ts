/**
 * Who may invite whom, to what, and who may manage an invitation (the reference's
 * views/invite.py, with API.md's role rule: a user may invite to their own role or a more
 * restricted one, so moderators may invite moderators).
 */
import { err, ok, type Result } from 'neverthrow';
import { type ApiError, badRequest, botsNotAllowed, insufficientPermission, mustBeOwner, notAllowedForGuests } from '../errors.js';
import type { Actor } from '../operation.js';
import type { RealmGroupSettingName } from '../settings/realm-settings.js';
import type { Invitation, Role, Stream, StoredUserGroup, Tx, User } from '../storage/types.js';
import { canAddSubscribers } from './channel-rules.js';
import { accessStreamById } from './channels.js';
import { hasRealmPermission } from './realm-rules.js';
import { isAdmin, isGuest, isOwner } from './roles.js';
import { hasGroupPermission } from './user-groups.js';

/** The reference's plain BAD_REQUEST for role-restricted invitation work (not UNAUTHORIZED_PRINCIPAL). */
const mustBeAdministrator = () => badRequest('Must be an organization administrator');

/** require_member_or_admin, then the realm permission to create this kind of invitation. */
export function checkMayInvite(actor: Actor, permission: RealmGroupSettingName): Result<void, ApiError> {
  if (actor.user.isBot) return err(botsNotAllowed());
  if (isGuest(actor.user)) return err(notAllowedForGuests());
  if (!hasRealmPermission(actor.user, actor.realm, permission)) return err(insufficientPermission());
  return ok(undefined);
}

/** Owners only invite owners; otherwise the role must be the inviter's own or more restricted. */
export function checkInviteRole(user: User, inviteAs: Role): Result<void, ApiError> {
  if (inviteAs === 100 && !isOwner(user)) return err(mustBeOwner());
  if (inviteAs < user.role) return err(mustBeAdministrator());
  return ok(undefined);
}

/**
 * Whether the user may list, revoke or resend the invitation: its referrer may; anyone else
 * must be an administrator, and an owner for an invitation to become an owner.
 */
export function checkManageInvitation(user: User, invitation: Invitation): Result<void, ApiError> {
  if (invitation.referrerId === user.id) return ok(undefined);
  if (invitation.inviteAs === 100 && !isOwner(user)) return err(mustBeOwner());
  if (!isAdmin(user)) return err(mustBeAdministrator());
  return ok(undefined);
}

/**
 * The channels an invitation subscribes to: each one the inviter can reach (else "Invalid
 * channel ID"), and each a default channel or one the inviter may add subscribers to
 * (the reference's get_streams_to_which_user_cannot_add_subscribers with allow_default_streams).
 */
export async function checkInviteChannels(tx: Tx, actor: Actor, ids: readonly number[]): Promise<Result<Stream[], ApiError>> {
  const streams: Stream[] = [];
  for (const id of ids) {
    const access = await accessStreamById(tx, actor.user, id);
    if (access.isErr()) return err(badRequest(`Invalid channel ID ${id}. No invites were sent.`));
    if (!streams.some((s) => s.id === id)) streams.push(access.value.stream);
  }
  if (streams.length === 0) return ok(streams);
  const defaults = new Set(await tx.defaultStreams.list(actor.realm.id));
  if (streams.some((s) => !defaults.has(s.id) && !canAddSubscribers(actor.user, actor.realm, s))) {
    return err(badRequest('You do not have permission to subscribe other users to channels.'));
  }
  return ok(streams);
}

/** The user groups an invitation adds to: the realm's active groups the inviter may add members to (can_add_members_group). */
export async function checkInviteGroups(tx: Tx, actor: Actor, ids: readonly number[]): Promise<Result<StoredUserGroup[], ApiError>> {
  const groups: StoredUserGroup[] = [];
  for (const id of ids) {
    const group = await tx.userGroups.get(actor.realm.id, id);
    if (!group || group.deactivated) return err(badRequest('Invalid user group'));
    if (!hasGroupPermission(actor.user, actor.realm, group, 'can_add_members_group')) return err(insufficientPermission());
    if (!groups.some((g) => g.id === id)) groups.push(group);
  }
  return ok(groups);
}
