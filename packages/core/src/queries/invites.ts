import { err, ok } from 'neverthrow';
import { checkManageInvitation } from '../access/invitations.js';
import { isGuest } from '../access/roles.js';
import { unixSeconds } from '../clock.js';
import { botsNotAllowed, notAllowedForGuests } from '../errors.js';
import { formatInvitation } from '../format/invitation.js';
import { type Actor, userOperation } from '../operation.js';
import { GetInvitesParams } from '../schemas/invites.js';

/**
 * GET /invites (SHAPES.md 5.11, 6.16): the realm's pending, unexpired invitations the caller
 * may manage: their own, and as an administrator everyone's (owner invitations: owners only).
 */
export const getInvites = userOperation(GetInvitesParams, async (ctx, actor: Actor) => {
  if (actor.user.isBot) return err(botsNotAllowed());
  if (isGuest(actor.user)) return err(notAllowedForGuests());
  const pending = await ctx.storage.read((tx) => tx.invitations.listPending(actor.realm.id, unixSeconds(ctx.clock)));
  const visible = pending.filter((invitation) => checkManageInvitation(actor.user, invitation).isOk());
  return ok({ invites: visible.map((invitation) => formatInvitation(actor.realm, invitation)) });
});
