/**
 * POST /users/me/presence (the reference's update_active_status_backend): a client reports its
 * user active or idle and, unless `ping_only`, fetches everyone's presence in the same request.
 *
 * A report changes presence memory only (presence/memory.ts): no transaction per ping. The
 * realm's store is read only for a cold realm, for the audience of a "came online" event, and
 * for the users' records when presence is fetched.
 */
import { err, ok } from 'neverthrow';
import { unixSeconds } from '../clock.js';
import { botsNotAllowed } from '../errors.js';
import { type Actor, userOperation } from '../operation.js';
import { announcePresence } from '../presence/events.js';
import { realmPresence } from '../presence/memory.js';
import { type PresenceAnswer, presenceForViewer } from '../presence/read.js';
import { recordPresence } from '../presence/record.js';
import { UpdatePresenceParams } from '../schemas/presence.js';
import { realmSetting } from '../settings/realm-settings.js';
import { userSetting } from '../settings/user-settings.js';

/**
 * Records the report (unless the user turned presence off: the reference then ignores their
 * reports, so others keep seeing them offline) and answers `{}` for `ping_only`, else the
 * presence the user may see. `last_update_id` implies the modern shape and returns only newer
 * changes; `new_user_input` feeds the reference's usage statistics, which this server has not.
 */
export const doUpdatePresence = userOperation(UpdatePresenceParams, async (ctx, actor: Actor, params) => {
  if (actor.user.isBot) return err(botsNotAllowed());
  if (userSetting(actor.user, 'presence_enabled')) {
    const memory = await realmPresence(ctx, actor.realm.id);
    const change = recordPresence(memory, ctx.config, actor.user.id, params.status, unixSeconds(ctx.clock));
    if (change.entry && change.cameOnline && !realmSetting(actor.realm, 'presence_disabled')) {
      await announcePresence(ctx, actor.realm, actor.user, change.entry, false);
    }
  }
  if (params.ping_only) return ok({} as Partial<PresenceAnswer>);
  const answer = await ctx.storage.read((tx) =>
    presenceForViewer(ctx, tx, actor.realm, actor.user, {
      slim: params.slim_presence || params.last_update_id !== undefined,
      lastUpdateId: params.last_update_id,
      historyLimitDays: params.history_limit_days,
    }),
  );
  return ok(answer as Partial<PresenceAnswer>);
});
