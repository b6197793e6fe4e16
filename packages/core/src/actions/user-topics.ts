import { err, ok, type Result } from 'neverthrow';
import { accessStreamById, accessStreamByName, invalidChannelId } from '../access/channels.js';
import { unixSeconds } from '../clock.js';
import type { Ctx } from '../context.js';
import { type ApiError, badRequest, incompatibleParameters } from '../errors.js';
import { normalizeTopic } from '../messages/normalize.js';
import { type Actor, userOperation } from '../operation.js';
import { UpdateMutedTopicParams, UpdateUserTopicParams } from '../schemas/user-topics.js';
import { type Stream, type Tx, type User, VISIBILITY_POLICY } from '../storage/types.js';
import { transactionAs } from '../transaction.js';
import { setUserTopicPolicy } from '../messages/user-topic-policy.js';
import { exceedsCodePoints } from '../text/length.js';

/**
 * POST /user_topics: sets the user's visibility policy for a topic of a channel they may read
 * (whether or not it has messages). Removing a policy (0) needs only a channel of the realm,
 * so a user can clear a policy in a channel they have since lost; "Invalid channel ID" otherwise.
 */
export const doUpdateUserTopic = userOperation(UpdateUserTopicParams, async (ctx, requester: Actor, params) =>
  transactionAs(ctx, requester, async (tx, { user }) => {
    const topic = checkTopic(ctx, params.topic);
    if (topic.isErr()) return err(topic.error);
    const policy = params.visibility_policy as 0 | 1 | 2 | 3;
    const stream = policy === VISIBILITY_POLICY.inherit
      ? await anyChannel(tx, user, params.stream_id, invalidChannelId())
      : (await accessStreamById(tx, user, params.stream_id)).map((a) => a.stream);
    if (stream.isErr()) return err(stream.error);
    await setUserTopicPolicy(ctx, tx, user, { stream: stream.value, topic: topic.value, policy, now: unixSeconds(ctx.clock) });
    return ok({});
  }),
);

/**
 * PATCH /users/me/subscriptions/muted_topics (deprecated, FL 170): `add` mutes the topic,
 * `remove` clears its policy. The channel is named by exactly one of `stream` and `stream_id`;
 * removing in an unknown channel says "Topic is not muted", as the reference does.
 */
export const doUpdateMutedTopic = userOperation(UpdateMutedTopicParams, async (ctx, requester: Actor, params) => {
  if (params.stream_id === undefined && params.stream === undefined) return err(badRequest("Missing 'stream_id' argument"));
  if (params.stream_id !== undefined && params.stream !== undefined) return err(incompatibleParameters(['stream_id', 'stream']));
  return transactionAs(ctx, requester, async (tx, { user }) => {
    const topic = checkTopic(ctx, params.topic);
    if (topic.isErr()) return err(topic.error);
    let stream: Result<Stream, ApiError>;
    if (params.op === 'add') {
      const access = params.stream !== undefined ? await accessStreamByName(tx, user, params.stream) : await accessStreamById(tx, user, params.stream_id!);
      stream = access.map((a) => a.stream);
    } else {
      stream = await anyChannel(tx, user, params.stream ?? params.stream_id!, badRequest('Topic is not muted'));
    }
    if (stream.isErr()) return err(stream.error);
    const policy = params.op === 'add' ? VISIBILITY_POLICY.muted : VISIBILITY_POLICY.inherit;
    await setUserTopicPolicy(ctx, tx, user, { stream: stream.value, topic: topic.value, policy, now: unixSeconds(ctx.clock) });
    return ok({});
  });
});

/** The reference caps the parameter at max_topic_length; otherwise the topic is read like a message topic. */
function checkTopic(ctx: Ctx, topic: string): Result<string, ApiError> {
  if (exceedsCodePoints(topic, ctx.config.maxTopicLength)) return err(badRequest(`topic is too long (limit: ${ctx.config.maxTopicLength} characters)`));
  return normalizeTopic(topic, ctx.config);
}

/** Any channel of the user's realm, archived or not, by ID or name (for removing a policy). */
async function anyChannel(tx: Tx, user: User, idOrName: number | string, error: ApiError): Promise<Result<Stream, ApiError>> {
  const stream = typeof idOrName === 'number' ? await tx.streams.byId(user.realmId, idOrName) : await tx.streams.byName(user.realmId, idOrName.trim());
  return stream ? ok(stream) : err(error);
}
