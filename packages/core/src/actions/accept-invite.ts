/**
 * POST /invites/accept: the invitee's side of an invitation (the reference's registration
 * through a confirmation link, as one API call). Unauthenticated: the key is the credential.
 */
import { err, ok, type Result } from 'neverthrow';
import { checkFullName, checkPassword, isValidEmail } from '../access/user-input.js';
import { hashPassword } from '../auth/password.js';
import { unixSeconds } from '../clock.js';
import type { Ctx } from '../context.js';
import { type ApiError, badRequest, missingArgument, realmDeactivated, resourceNotFound } from '../errors.js';
import { publicOperation } from '../operation.js';
import { AcceptInviteParams } from '../schemas/invites.js';
import type { Invitation, Realm, Tx, User } from '../storage/types.js';
import { announceInvitesChanged } from '../invites/records.js';
import { announceUserGroup } from '../groups/user-group-events.js';
import { insertUser } from '../users/records.js';

/** The channels the new account joins: the invitation's, plus the realm's defaults if it says so. */
async function invitationChannels(tx: Tx, realm: Realm, invitation: Invitation): Promise<number[]> {
  const defaults = invitation.includeRealmDefaultSubscriptions ? await tx.defaultStreams.list(realm.id) : [];
  return [...invitation.streamIds, ...defaults];
}

/** Adds the new account to the invitation's groups that still exist and are active. */
async function joinInvitationGroups(ctx: Ctx, tx: Tx, realm: Realm, user: User, invitation: Invitation): Promise<void> {
  for (const id of invitation.groupIds) {
    const group = await tx.userGroups.get(realm.id, id);
    if (!group || group.deactivated) continue;
    await tx.userGroups.addMembers(realm.id, group.id, [user.id]);
    await announceUserGroup(ctx, tx, realm, { op: 'add_members', group_id: group.id, user_ids: [user.id] });
  }
}

/** The realm and the invitation `key` names, if the invitation can still be accepted. */
async function findUsableInvitation(ctx: Ctx, tx: Tx, realmId: number, key: string): Promise<Result<{ realm: Realm; invitation: Invitation }, ApiError>> {
  const realm = await tx.realms.byId(realmId);
  if (!realm || realm.deactivated) return err(realmDeactivated());
  const invitation = await tx.invitations.byKey(realm.id, key.trim());
  if (!invitation) return err(resourceNotFound('No such invitation'));
  if (invitation.status === 'used') return err(badRequest('This invitation has already been used.'));
  const expired = invitation.expiresAt !== null && invitation.expiresAt <= unixSeconds(ctx.clock);
  if (invitation.status === 'revoked' || expired) return err(badRequest('The invitation link has expired or been deactivated.'));
  return ok({ realm, invitation });
}

/**
 * Creates the account an invitation offers, through the one account-creation path, with the
 * invitation's role, channels and groups; an email invitation becomes used. Refuses unknown
 * keys (404), used ones, and revoked or expired ones. Answers what a client needs to log in,
 * as POST /fetch_api_key does.
 */
export const doAcceptInvite = publicOperation(AcceptInviteParams, async (ctx, caller, params) => {
  const fullName = checkFullName(params.full_name);
  if (fullName.isErr()) return err(fullName.error);
  const password = checkPassword(params.password);
  if (password.isErr()) return err(password.error);
  // Anyone may call this: a key that cannot be used is refused before the slow hash, so that
  // guessed keys cost no derivation (the transaction checks again: it may change meanwhile).
  const usable = await ctx.storage.read((tx) => findUsableInvitation(ctx, tx, caller.realm.id, params.key));
  if (usable.isErr()) return err(usable.error);
  // Hash outside the transaction: scrypt is slow and must not hold the store.
  const passwordHash = await hashPassword(ctx, password.value);
  return ctx.storage.transaction(async (tx) => {
    const found = await findUsableInvitation(ctx, tx, caller.realm.id, params.key);
    if (found.isErr()) return err(found.error);
    const { realm, invitation } = found.value;

    const given = params.email?.trim();
    if (invitation.email !== null && given !== undefined && given.toLowerCase() !== invitation.email.toLowerCase()) {
      return err(badRequest('The email address does not match the invitation.'));
    }
    const email = invitation.email ?? given;
    if (email === undefined) return err(missingArgument('email'));
    if (!isValidEmail(email)) return err(badRequest('Enter a valid email address.'));

    // Used before the account exists, so the account's creation revokes only the other invitations to it.
    if (!invitation.isMultiuse) await tx.invitations.updatePending(realm.id, invitation.id, { status: 'used' });
    const created = await insertUser(ctx, tx, realm, {
      email,
      fullName: fullName.value,
      passwordHash,
      role: invitation.inviteAs,
      channelIds: await invitationChannels(tx, realm, invitation),
      notifyReferrerId: invitation.notifyReferrerOnJoin ? invitation.referrerId : undefined,
    });
    if (created.isErr()) return err(created.error);
    const user = created.value;
    await joinInvitationGroups(ctx, tx, realm, user, invitation);
    await announceInvitesChanged(ctx, tx, realm, [invitation.referrerId]);
    return ok({ api_key: user.apiKey, email: user.deliveryEmail, user_id: user.id });
  });
});
