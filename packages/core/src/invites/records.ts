/**
 * Writing invitations: the row, its email in the outbox, and the invites_changed event, all in
 * the caller's transaction (the event and the mail go out after commit).
 */
import { isAdmin } from '../access/roles.js';
import { generateApiKey } from '../auth/api-key.js';
import { unixSeconds } from '../clock.js';
import type { Ctx } from '../context.js';
import { publishOnCommit } from '../events/publish.js';
import { invitationLink } from '../format/invitation.js';
import type { Invitation, InvitationFields, Realm, Tx, User } from '../storage/types.js';

/** What the inviting request chose; the action adds the referrer, times and key. */
export type InvitationChoice = Omit<InvitationFields, 'referrerId' | 'invitedAt' | 'expiresAt' | 'key' | 'email'>;

/** A fresh, unguessable accept key (the reference's confirmation keys are 24 characters; ours are longer). */
const newKey = (ctx: Ctx) => generateApiKey(ctx).toLowerCase();

/** Unix seconds at which an invitation made now for `minutes` expires; null never. */
export const expiryFrom = (invitedAt: number, minutes: number | null) => (minutes === null ? null : invitedAt + minutes * 60);

/** Inserts a pending invitation from `referrer` (email null: a reusable link). */
export async function insertInvitation(
  ctx: Ctx,
  tx: Tx,
  realm: Realm,
  referrer: User,
  email: string | null,
  choice: InvitationChoice,
  minutes: number | null,
): Promise<Invitation> {
  const invitedAt = unixSeconds(ctx.clock);
  const invitation = await tx.invitations.insert(realm.id, {
    ...choice,
    referrerId: referrer.id,
    email,
    invitedAt,
    expiresAt: expiryFrom(invitedAt, minutes),
    key: newKey(ctx),
  });
  // The referrer was re-read in this transaction, so the insert cannot miss them.
  if (!invitation) throw new Error(`invitation: referrer ${referrer.id} is not in realm ${realm.id}`);
  return invitation;
}

/** Puts the invitation email for `invitation` in the outbox (its accept link and expiry). */
export async function queueInvitationEmail(ctx: Ctx, tx: Tx, realm: Realm, referrer: User, invitation: Invitation): Promise<void> {
  const expiry = invitation.expiresAt === null ? 'This invitation does not expire.' : `This invitation expires at ${new Date(invitation.expiresAt * 1000).toISOString()}.`;
  await tx.outbox.insert({
    realmId: realm.id,
    to: invitation.email!,
    subject: `${referrer.fullName} invited you to join ${realm.name}`,
    body: [
      `${referrer.fullName} (${referrer.deliveryEmail}) has invited you to join ${realm.name} (${realm.url}).`,
      '',
      `To accept, open this link and create your account: ${invitationLink(realm, invitation)}`,
      '',
      expiry,
    ].join('\n'),
    createdAt: unixSeconds(ctx.clock),
  });
}

/**
 * invites_changed (SHAPES.md 4.17): no payload; clients refetch GET /invites. It goes to the
 * realm's active administrators (bots included, as the reference's admin list) and to the
 * referrers of the changed invitations.
 */
export async function announceInvitesChanged(ctx: Ctx, tx: Tx, realm: Realm, referrerIds: readonly number[]): Promise<void> {
  const users = (await tx.users.list(realm.id)).filter((u) => u.isActive);
  const audience = users.filter((u) => isAdmin(u) || referrerIds.includes(u.id)).map((u) => u.id);
  publishOnCommit(ctx, tx, { realmId: realm.id, userIds: audience, event: { type: 'invites_changed' } });
}

/**
 * Revokes the realm's other pending email invitations to `email` once an account has it (the
 * reference's revoke_preregistration_users); returns their referrers, for invites_changed.
 */
export async function revokeInvitationsTo(ctx: Ctx, tx: Tx, realm: Realm, email: string): Promise<number[]> {
  const address = email.toLowerCase();
  const stale = (await tx.invitations.listPending(realm.id, unixSeconds(ctx.clock))).filter((i) => i.email?.toLowerCase() === address);
  for (const invitation of stale) await tx.invitations.updatePending(realm.id, invitation.id, { status: 'revoked' });
  return stale.map((i) => i.referrerId);
}
