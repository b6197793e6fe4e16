/**
 * GET /users/{user_id}/subscriptions/{stream_id} (FL 12): whether a user is subscribed to a
 * channel, with the reference's checks (get_subscription_backend): the user must be one the
 * caller may access (no bots; deactivated users are refused), and the channel one the caller
 * may see; administrators and the channel's administrators see private channels too.
 */
import { err, ok } from 'neverthrow';
import { accessStreamById } from '../access/channels.js';
import { accessUserById } from '../access/users.js';
import { type Actor, userOperation } from '../operation.js';
import { SubscriptionStatusParams } from '../schemas/channels.js';

/** `{is_subscribed}`: whether the user has an active subscription to the channel now. */
export const getSubscriptionStatus = userOperation(SubscriptionStatusParams, async (ctx, actor: Actor, params) =>
  ctx.storage.read(async (tx) => {
    const target = await accessUserById(tx, actor, params.user_id);
    if (target.isErr()) return err(target.error);
    const channel = await accessStreamById(tx, actor.user, params.stream_id, { metadataOnly: true });
    if (channel.isErr()) return err(channel.error);
    const subscription = await tx.subscriptions.get(actor.realm.id, target.value.id, channel.value.stream.id);
    return ok({ is_subscribed: subscription?.active === true });
  }),
);
