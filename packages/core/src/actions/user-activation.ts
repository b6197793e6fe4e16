import { err, ok, type Result } from 'neverthrow';
import { checkCanCreateBot } from '../access/bots.js';
import { isOwner } from '../access/roles.js';
import { checkBotNameAvailable } from '../bots/names.js';
import { accessUserById, isOnlyOwner } from '../access/users.js';
import { unixSeconds } from '../clock.js';
import type { Ctx } from '../context.js';
import { type ApiError, badRequest, mustBeOwner } from '../errors.js';
import { flushOutbox } from '../mail/outbox.js';
import { type Actor, userOperation } from '../operation.js';
import { DeactivateUserParams, ReactivateUserParams } from '../schemas/users.js';
import { deleteMessagesBySender } from '../messages/delete.js';
import { transactionAs } from '../transaction.js';
import { applyUserChange } from '../users/changes.js';
import type { Realm, Tx, User } from '../storage/types.js';

type DeactivationActions = NonNullable<(typeof DeactivateUserParams)['TYPE']['actions']>;

/**
 * DELETE /users/{user_id} (API.md 4.14): deactivates the user's bots, then the user. The
 * optional `actions` apply to those bots first, then to the user.
 */
export const doDeactivateUser = userOperation(DeactivateUserParams, async (ctx, requester: Actor, params) => {
  const result = await transactionAs(ctx, requester, async (tx, actor): Promise<Result<Record<string, never>, ApiError>> => {
    const access = await accessUserById(tx, actor, params.user_id, { forAdmin: true });
    if (access.isErr()) return err(access.error);
    const target = access.value;
    if (isOwner(target) && !isOwner(actor.user)) return err(mustBeOwner());
    if (await isOnlyOwner(tx, target)) {
      return err(badRequest('Cannot deactivate the only organization owner'));
    }
    const actions = params.actions ?? {};
    const bots = (await tx.users.botsOwnedBy(target.realmId, target.id)).filter((bot) => bot.isActive);
    for (const user of [...bots, target]) {
      const scrubbed = await applyDeactivationActions(ctx, tx, actor, user, actions);
      await applyUserChange(ctx, tx, actor.realm, scrubbed, { isActive: false });
    }
    const comment = params.deactivation_notification_comment;
    if (comment !== undefined && comment !== null) {
      await queueDeactivationNotice(ctx, tx, actor.realm, target, comment.trim());
    }
    return ok({});
  });
  if (result.isOk()) await flushOutbox(ctx);
  return result;
});

/**
 * The deactivation actions: the user's messages of each chosen kind are deleted (with
 * delete_message events, the deactivating administrator as the deleter), then the profile.
 */
async function applyDeactivationActions(
  ctx: Ctx,
  tx: Tx,
  actor: Actor,
  user: User,
  actions: DeactivationActions,
): Promise<User> {
  const realm = actor.realm;
  await deleteMessagesBySender(ctx, tx, realm, user, {
    publicChannels: actions.delete_public_channel_messages === true,
    privateChannels: actions.delete_private_channel_messages === true,
    direct: actions.delete_direct_messages === true,
  }, actor.user);
  if (!actions.delete_profile) return user;
  return applyUserChange(ctx, tx, realm, user, {
    fullName: `Deleted User ${user.id}`,
    avatarSource: 'G',
    avatarVersion: user.avatarVersion + 1,
    timezone: '',
  });
}

async function queueDeactivationNotice(ctx: Ctx, tx: Tx, realm: Realm, user: User, comment: string): Promise<void> {
  const lines = [
    `Your account on ${realm.name} (${realm.url}) has been deactivated.`,
    ...(comment ? ['', 'The administrator provided the following comment:', '', comment] : []),
  ];
  await tx.outbox.insert({
    realmId: realm.id,
    to: user.deliveryEmail,
    subject: `Your account on ${realm.name} has been deactivated`,
    body: lines.join('\n'),
    createdAt: unixSeconds(ctx.clock),
  });
}

/** POST /users/{user_id}/reactivate. */
export const doReactivateUser = userOperation(ReactivateUserParams, async (ctx, requester: Actor, params) =>
  transactionAs(ctx, requester, async (tx, actor) => {
    const access = await accessUserById(tx, actor, params.user_id, {
      allowDeactivated: true,
      allowBots: true,
      forAdmin: true,
    });
    if (access.isErr()) return err(access.error);
    const target = access.value;
    if (target.isActive) return err(badRequest('User is already active.'));
    if (target.isBot) {
      // A bot comes back only where its type could be created now, under a name still free.
      const allowed = checkCanCreateBot(actor.user, actor.realm, target.botType ?? 1);
      if (allowed.isErr()) return err(allowed.error);
      const available = await checkBotNameAvailable(tx, actor.realm.id, target.fullName, { activation: true });
      if (available.isErr()) return err(available.error);
    }
    await applyUserChange(ctx, tx, actor.realm, target, { isActive: true });
    return ok({});
  }),
);
