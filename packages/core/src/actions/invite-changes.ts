/** Revoking and resending invitations (SHAPES.md 6.16): their referrer, or an administrator. */
import { err, ok, type Result } from 'neverthrow';
import { checkManageInvitation } from '../access/invitations.js';
import { isGuest } from '../access/roles.js';
import { unixSeconds } from '../clock.js';
import { type ApiError, badRequest, botsNotAllowed, notAllowedForGuests } from '../errors.js';
import { flushOutbox } from '../mail/outbox.js';
import { type Actor, userOperation } from '../operation.js';
import { InviteIdParams } from '../schemas/invites.js';
import type { Invitation, Tx } from '../storage/types.js';
import { announceInvitesChanged, queueInvitationEmail } from '../invites/records.js';
import { transactionAs } from '../transaction.js';

const noSuchInvitation = () => badRequest('No such invitation');

/**
 * The invitation `id` of the kind asked for, as the actor may manage it. A used or revoked
 * email invitation no longer exists for the API (the reference deletes its row); a revoked
 * link is reported as such.
 */
async function accessInvitation(tx: Tx, actor: Actor, id: number, multiuse: boolean): Promise<Result<Invitation, ApiError>> {
  if (actor.user.isBot) return err(botsNotAllowed());
  if (isGuest(actor.user)) return err(notAllowedForGuests());
  const invitation = await tx.invitations.get(actor.realm.id, id);
  if (!invitation || invitation.isMultiuse !== multiuse) return err(noSuchInvitation());
  if (!multiuse && invitation.status !== 'pending') return err(noSuchInvitation());
  const allowed = checkManageInvitation(actor.user, invitation);
  if (allowed.isErr()) return err(allowed.error);
  if (invitation.status === 'revoked') return err(badRequest('Invitation has already been revoked'));
  return ok(invitation);
}

function revoke(multiuse: boolean) {
  return userOperation(InviteIdParams, async (ctx, requester: Actor, params) =>
    transactionAs(ctx, requester, async (tx, actor) => {
      const invitation = await accessInvitation(tx, actor, params.invite_id, multiuse);
      if (invitation.isErr()) return err(invitation.error);
      await tx.invitations.updatePending(actor.realm.id, invitation.value.id, { status: 'revoked' });
      await announceInvitesChanged(ctx, tx, actor.realm, [invitation.value.referrerId]);
      return ok({});
    }),
  );
}

/** DELETE /invites/{invite_id}: revokes an email invitation. */
export const doRevokeInvite = revoke(false);

/** DELETE /invites/multiuse/{invite_id}: revokes a reusable link. */
export const doRevokeMultiuseInvite = revoke(true);

/**
 * POST /invites/{invite_id}/resend: mails the invitation again and restarts its clock: invited
 * now, and expiring after the validity it was created with (never, if it never expired).
 */
export const doResendInvite = userOperation(InviteIdParams, async (ctx, requester: Actor, params) => {
  const result = await transactionAs(ctx, requester, async (tx, actor) => {
    const access = await accessInvitation(tx, actor, params.invite_id, false);
    if (access.isErr()) return err(access.error);
    const invitation = access.value;
    const invitedAt = unixSeconds(ctx.clock);
    const expiresAt = invitation.expiresAt === null ? null : invitedAt + (invitation.expiresAt - invitation.invitedAt);
    await tx.invitations.updatePending(actor.realm.id, invitation.id, { invitedAt, expiresAt });
    const referrer = (await tx.users.byId(actor.realm.id, invitation.referrerId)) ?? actor.user;
    await queueInvitationEmail(ctx, tx, actor.realm, referrer, { ...invitation, invitedAt, expiresAt });
    await announceInvitesChanged(ctx, tx, actor.realm, [invitation.referrerId]);
    return ok({});
  });
  if (result.isOk()) await flushOutbox(ctx);
  return result;
});
