/**
 * Setting a user's status (openapi update-status, update-status-for-user; the reference's
 * do_update_user_status): the checks of user-status/change.ts, the write, and a `user_status`
 * event after commit to every active user who may access the user.
 */
import { err, ok, type Result } from 'neverthrow';
import { accessUserById } from '../access/users.js';
import { unixSeconds } from '../clock.js';
import type { Ctx } from '../context.js';
import { realmEmojiLookup } from '../emoji/index.js';
import { type ApiError, botsNotAllowed } from '../errors.js';
import { publishOnCommit } from '../events/publish.js';
import { accessingUsers } from '../events/realm-user.js';
import { realmEmojiRefs } from '../format/realm-emoji.js';
import { type Actor, userOperation } from '../operation.js';
import { UpdateOwnStatusParams, UpdateUserStatusParams } from '../schemas/user-status.js';
import { userSetting } from '../settings/user-settings.js';
import type { Tx, User } from '../storage/types.js';
import { checkStatusChange, type StatusRequest } from '../user-status/change.js';
import { applySettingChanges } from './settings.js';
import { transactionAs } from '../transaction.js';

/**
 * POST /users/me/status: changes only the fields sent. The deprecated `away` sets the
 * presence_enabled setting to its inverse (with that setting's own `user_settings` event, sent
 * first, as in the reference) and is echoed in the `user_status` event. Bots have no status.
 */
export const doUpdateOwnStatus = userOperation(UpdateOwnStatusParams, async (ctx, requester: Actor, params) => {
  if (requester.user.isBot) return err(botsNotAllowed());
  return transactionAs(ctx, requester, (tx, actor) => updateStatus(ctx, tx, actor, actor.user, params));
});

/**
 * POST /users/{user_id}/status (FL 407): an administrator changes another user's status, with
 * the checks and event of the user's own change. The target is an active human of the realm.
 */
export const doUpdateUserStatus = userOperation(UpdateUserStatusParams, async (ctx, requester: Actor, params) => {
  if (requester.user.isBot) return err(botsNotAllowed());
  return transactionAs(ctx, requester, async (tx, actor) => {
    const target = await accessUserById(tx, actor, params.user_id, { forAdmin: true });
    if (target.isErr()) return err(target.error);
    // Named one by one: `away` is not a parameter here, and input may carry unknown keys.
    const { status_text, emoji_name, emoji_code, reaction_type } = params;
    return updateStatus(ctx, tx, actor, target.value, { status_text, emoji_name, emoji_code, reaction_type });
  });
});

async function updateStatus(ctx: Ctx, tx: Tx, actor: Actor, target: User, request: StatusRequest): Promise<Result<Record<string, never>, ApiError>> {
  const { realm } = actor;
  const checked = checkStatusChange(request, realmEmojiLookup(realmEmojiRefs(await tx.realmEmoji.list(realm.id))));
  if (checked.isErr()) return err(checked.error);
  // A setting that already has the value is not written again (as PATCH /settings does).
  if (request.away !== undefined && userSetting(target, 'presence_enabled') === request.away) {
    await applySettingChanges(ctx, tx, actor, target, [{ name: 'presence_enabled', value: !request.away }]);
  }
  // The row is written even for `away` alone, as the reference's is: it is what register lists.
  await tx.userStatuses.set(realm.id, target.id, checked.value.change, unixSeconds(ctx.clock));
  const audience = (await accessingUsers(tx, realm, target)).map((u) => u.id);
  publishOnCommit(ctx, tx, { realmId: realm.id, userIds: audience, event: { type: 'user_status', user_id: target.id, ...checked.value.event } });
  return ok({});
}
