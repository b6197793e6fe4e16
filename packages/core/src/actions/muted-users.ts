/**
 * Muting and unmuting users (openapi mute-user, unmute-user; the reference's
 * actions/muted_users.py): any user of the realm but oneself may be muted, bots and
 * deactivated users included. Muting marks the user's messages read; both send the user's
 * whole `muted_users` list to their own queues after commit.
 */
import { err, ok } from 'neverthrow';
import { accessUserById } from '../access/users.js';
import { unixSeconds } from '../clock.js';
import type { Ctx } from '../context.js';
import { cannotMuteSelf, userAlreadyMuted, userNotMuted } from '../errors.js';
import { publishOnCommit } from '../events/publish.js';
import { markSenderMessagesRead } from '../muting/muted-senders.js';
import { mutedUsersOf } from '../muting/muted-users.js';
import { type Actor, userOperation } from '../operation.js';
import { MuteUserParams } from '../schemas/muted-users.js';
import type { Tx, User } from '../storage/types.js';
import { transactionAs } from '../transaction.js';

/** Who may be named: the reference also accepts bots, deactivated users and its cross-realm bots. */
const MUTABLE = { allowBots: true, allowDeactivated: true, allowSystemBots: true } as const;

/** POST /users/me/muted_users/{muted_user_id}. */
export const doMuteUser = userOperation(MuteUserParams, async (ctx, requester: Actor, params) => {
  if (params.muted_user_id === requester.user.id) return err(cannotMuteSelf());
  return transactionAs(ctx, requester, async (tx, actor) => {
    const target = await accessUserById(tx, actor, params.muted_user_id, MUTABLE);
    if (target.isErr()) return err(target.error);
    if (!(await tx.mutedUsers.add(actor.realm.id, actor.user.id, target.value.id, unixSeconds(ctx.clock)))) return err(userAlreadyMuted());
    // The flags event comes first, as in the reference.
    await markSenderMessagesRead(ctx, tx, actor, target.value.id);
    await announceMutedUsers(ctx, tx, actor.user);
    return ok({});
  });
});

/** DELETE /users/me/muted_users/{muted_user_id}: messages marked read when muting stay read. */
export const doUnmuteUser = userOperation(MuteUserParams, async (ctx, requester: Actor, params) =>
  transactionAs(ctx, requester, async (tx, actor) => {
    const target = await accessUserById(tx, actor, params.muted_user_id, MUTABLE);
    if (target.isErr()) return err(target.error);
    if (!(await tx.mutedUsers.remove(actor.realm.id, actor.user.id, target.value.id))) return err(userNotMuted());
    await announceMutedUsers(ctx, tx, actor.user);
    return ok({});
  }),
);

async function announceMutedUsers(ctx: Ctx, tx: Tx, user: User): Promise<void> {
  const event = { type: 'muted_users', muted_users: await mutedUsersOf(tx, user) } as const;
  publishOnCommit(ctx, tx, { realmId: user.realmId, userIds: [user.id], event });
}
