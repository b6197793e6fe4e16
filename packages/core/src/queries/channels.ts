import { err, ok } from 'neverthrow';
import { canSeeSubscribers, subscribersRefusal } from '../access/channel-rules.js';
import { accessStreamById, accessStreamByName } from '../access/channels.js';
import { isGuest } from '../access/roles.js';
import { badRequest } from '../errors.js';
import { formatStream } from '../format/channel.js';
import { type Actor, userOperation } from '../operation.js';
import { GetDefaultStreamsParams, GetStreamIdParams, GetStreamsParams, GetSubscriptionsParams, StreamPathParams } from '../schemas/channels.js';
import { formatStreams, gatherSubscriptions, streamsForUser } from './channel-lists.js';

/** GET /users/me/subscriptions (SHAPES.md 6.10): the requester's subscriptions, by name. */
export const getSubscriptions = userOperation(GetSubscriptionsParams, async (ctx, actor: Actor, params) => {
  const lists = await ctx.storage.read((tx) =>
    gatherSubscriptions(tx, actor.realm, actor.user, { includeSubscribers: params.include_subscribers, includeArchived: false }),
  );
  return ok({ subscriptions: lists.subscriptions });
});

/** GET /streams: the channels the flags select among those the requester may see, by name. */
export const getStreams = userOperation(GetStreamsParams, async (ctx, actor: Actor, params) =>
  ctx.storage.read(async (tx) => {
    const streams = await streamsForUser(tx, actor.realm, actor.user, {
      includePublic: params.include_public,
      includeWebPublic: params.include_web_public,
      includeSubscribed: params.include_subscribed,
      excludeArchived: params.exclude_archived,
      includeAll: params.include_all || params.include_all_active,
      includeOwnerSubscribed: params.include_owner_subscribed,
      includeCanAccessContent: params.include_can_access_content,
    });
    const objects = await formatStreams(tx, actor.realm, streams);
    if (params.include_default) {
      const defaults = new Set(await tx.defaultStreams.list(actor.realm.id));
      for (const object of objects) object.is_default = defaults.has(object.stream_id);
    }
    return ok({ streams: objects });
  }),
);

/** GET /streams/{stream_id}: one channel the requester may see (administrators: any). */
export const getStream = userOperation(StreamPathParams, async (ctx, actor: Actor, params) =>
  ctx.storage.read(async (tx) => {
    const access = await accessStreamById(tx, actor.user, params.stream_id, { metadataOnly: true });
    if (access.isErr()) return err(access.error);
    const count = (await tx.subscriptions.activeSubscriberIds(actor.realm.id, params.stream_id)).length;
    return ok({ stream: formatStream(access.value.stream, count) });
  }),
);

/** GET /streams/{stream_id}/members: the channel's active subscribers, where the requester may see them. */
export const getStreamMembers = userOperation(StreamPathParams, async (ctx, actor: Actor, params) =>
  ctx.storage.read(async (tx) => {
    const access = await accessStreamById(tx, actor.user, params.stream_id, { metadataOnly: true });
    if (access.isErr()) return err(access.error);
    const { stream, subscribed } = access.value;
    if (!canSeeSubscribers(actor.user, stream, subscribed)) return err(badRequest(subscribersRefusal(actor.user, stream)));
    return ok({ subscribers: await tx.subscriptions.activeSubscriberIds(actor.realm.id, stream.id) });
  }),
);

/** GET /get_stream_id?stream=name: the ID of a channel the requester may read. */
export const getStreamId = userOperation(GetStreamIdParams, async (ctx, actor: Actor, params) =>
  ctx.storage.read(async (tx) => {
    const access = await accessStreamByName(tx, actor.user, params.stream);
    return access.map(({ stream }) => ({ stream_id: stream.id }));
  }),
);

/**
 * GET /default_streams: the IDs of the channels new users join, as register's
 * realm_default_streams and the default_streams event give them (guests get none).
 */
export const getDefaultStreams = userOperation(GetDefaultStreamsParams, async (ctx, actor: Actor) => {
  if (isGuest(actor.user)) return ok({ default_streams: [] });
  return ok({ default_streams: await ctx.storage.read((tx) => tx.defaultStreams.list(actor.realm.id)) });
});
