/**
 * Creating invitations (API.md 4.5, 4.6; FACTS.md 6.4): email invitations, each mailed with
 * its accept link, and reusable links. Checks run in the reference's order.
 */
import { err, ok, type Result } from 'neverthrow';
import { checkInviteChannels, checkInviteGroups, checkInviteRole, checkMayInvite } from '../access/invitations.js';
import { isAdmin } from '../access/roles.js';
import { isValidEmail } from '../access/user-input.js';
import type { Ctx } from '../context.js';
import { type ApiError, badRequest, invitationFailed, type InviteeError } from '../errors.js';
import { invitationLink } from '../format/invitation.js';
import { flushOutbox } from '../mail/outbox.js';
import { type Actor, userOperation } from '../operation.js';
import { CreateMultiuseInviteParams, InviteUsersParams } from '../schemas/invites.js';
import type { Role, Tx } from '../storage/types.js';
import { announceInvitesChanged, type InvitationChoice, insertInvitation, queueInvitationEmail } from '../invites/records.js';
import { transactionAs } from '../transaction.js';

type CommonParams = {
  invite_expires_in_minutes?: number | null;
  invite_as: number;
  group_ids?: number[] | null;
  include_realm_default_subscriptions: boolean;
  welcome_message_custom_text?: string | null;
};

/**
 * The invitee addresses: split on commas and newlines, `Name <addr>` reduced to addr, stripped,
 * empty entries skipped, repeats (in any case) kept once.
 */
export function parseInviteeEmails(raw: string): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const entry of raw.split(/[,\n]/)) {
    const email = (/<(.*)>/.exec(entry)?.[1] ?? entry).trim();
    if (email === '' || seen.has(email.toLowerCase())) continue;
    seen.add(email.toLowerCase());
    out.push(email);
  }
  return out;
}

/** Channel and group checks shared by both kinds (after the role check), then what the invitation will hold. */
async function checkChoice(
  tx: Tx,
  actor: Actor,
  params: CommonParams,
  streamIds: readonly number[],
  notifyReferrerOnJoin: boolean,
): Promise<Result<InvitationChoice, ApiError>> {
  const streams = await checkInviteChannels(tx, actor, streamIds);
  if (streams.isErr()) return err(streams.error);
  const groups = await checkInviteGroups(tx, actor, params.group_ids ?? []);
  if (groups.isErr()) return err(groups.error);
  return ok({
    inviteAs: params.invite_as as Role,
    streamIds: streams.value.map((s) => s.id),
    groupIds: groups.value.map((g) => g.id),
    includeRealmDefaultSubscriptions: params.include_realm_default_subscriptions,
    notifyReferrerOnJoin,
    // Only administrators choose the welcome text; everyone else's invitations use the realm's.
    welcomeMessageCustomText: isAdmin(actor.user) ? (params.welcome_message_custom_text ?? null) : null,
  });
}

const minutesOf = (ctx: Ctx, params: CommonParams) =>
  params.invite_expires_in_minutes === undefined ? ctx.config.invitationLinkValidityMinutes : params.invite_expires_in_minutes;

/**
 * The addresses that cannot be invited because an account of the realm has them, with the
 * reference's reasons. Invalid addresses are refused before anything is written.
 */
async function refusedInvitees(tx: Tx, realmId: number, emails: readonly string[]): Promise<InviteeError[]> {
  const refused: InviteeError[] = [];
  for (const email of emails) {
    const holder = await tx.users.byDeliveryEmail(realmId, email);
    if (holder) refused.push(holder.isActive ? [email, 'Already has an account.', false] : [email, 'Account has been deactivated.', true]);
  }
  return refused;
}

/**
 * POST /invites: one pending invitation and one email per address. Addresses that already
 * have accounts are refused with INVITATION_FAILED while the others are still invited
 * (sent_invitations true); if every address is refused, nothing is written.
 */
export const doInviteUsers = userOperation(InviteUsersParams, async (ctx, requester: Actor, params) => {
  const result = await transactionAs(ctx, requester, async (tx, actor): Promise<Result<InviteeError[], ApiError>> => {
    const allowed = checkMayInvite(actor, 'can_invite_users_group');
    if (allowed.isErr()) return err(allowed.error);
    const role = checkInviteRole(actor.user, params.invite_as as Role);
    if (role.isErr()) return err(role.error);
    const emails = parseInviteeEmails(params.invitee_emails);
    if (emails.length === 0) return err(badRequest('You must specify at least one email address.'));
    const choice = await checkChoice(tx, actor, params, params.stream_ids, params.notify_referrer_on_join);
    if (choice.isErr()) return err(choice.error);

    const invalid = emails.filter((e) => !isValidEmail(e)).map((e): InviteeError => [e, 'Invalid address.', false]);
    const refused = await refusedInvitees(tx, actor.realm.id, emails.filter((e) => isValidEmail(e)));
    if (invalid.length > 0) return err(invitationFailed("Some emails did not validate, so we didn't send any invitations.", [...invalid, ...refused], false));
    if (refused.length === emails.length) return err(invitationFailed("We weren't able to invite anyone.", refused, false));

    const skipped = new Set(refused.map(([email]) => email));
    for (const email of emails.filter((e) => !skipped.has(e))) {
      const invitation = await insertInvitation(ctx, tx, actor.realm, actor.user, email, choice.value, minutesOf(ctx, params));
      await queueInvitationEmail(ctx, tx, actor.realm, actor.user, invitation);
    }
    await announceInvitesChanged(ctx, tx, actor.realm, [actor.user.id]);
    return ok(refused);
  });
  if (result.isErr()) return err(result.error);
  await flushOutbox(ctx);
  if (result.value.length > 0) {
    return err(
      invitationFailed(
        "Some of those addresses are already using Zulip, so we didn't send them an invitation. We did send invitations to everyone else!",
        result.value,
        true,
      ),
    );
  }
  return ok({});
});

/** POST /invites/multiuse: a reusable link; its accepters give their own email. */
export const doCreateMultiuseInvite = userOperation(CreateMultiuseInviteParams, async (ctx, requester: Actor, params) =>
  transactionAs(ctx, requester, async (tx, actor) => {
    const allowed = checkMayInvite(actor, 'create_multiuse_invite_group');
    if (allowed.isErr()) return err(allowed.error);
    const role = checkInviteRole(actor.user, params.invite_as as Role);
    if (role.isErr()) return err(role.error);
    // A link has no single referrer to notify; stored true, as the reference lists links.
    const choice = await checkChoice(tx, actor, params, params.stream_ids ?? [], true);
    if (choice.isErr()) return err(choice.error);
    const invitation = await insertInvitation(ctx, tx, actor.realm, actor.user, null, choice.value, minutesOf(ctx, params));
    await announceInvitesChanged(ctx, tx, actor.realm, [actor.user.id]);
    return ok({ invite_link: invitationLink(actor.realm, invitation) });
  }),
);
