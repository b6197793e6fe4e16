/**
 * Writing a user's visibility policy for a topic, and the events that report it: `user_topic`
 * to the user's queues, and the legacy `muted_topics` list (the reference sends both; a queue
 * that asked for `user_topic` by name does not get the legacy one).
 */
import { hasMetadataAccess } from '../access/channel-rules.js';
import type { Ctx } from '../context.js';
import { publishOnCommit } from '../events/publish.js';
import { type Stream, type Tx, type User, type UserTopic, VISIBILITY_POLICY, type VisibilityPolicy } from '../storage/types.js';

export interface PolicyChange {
  stream: Stream;
  /** The topic as stored ("" for the empty topic). */
  topic: string;
  policy: VisibilityPolicy;
  /** Unix seconds. */
  now: number;
  /** Leave out the legacy `muted_topics` event (a topic move sends it with the next change). */
  skipLegacyEvent?: boolean;
}

/**
 * Sets the user's policy for the topic. A request that changes nothing (the same policy, or
 * removing a policy that is not set) writes and sends nothing, as in the reference.
 */
export async function setUserTopicPolicy(ctx: Ctx, tx: Tx, user: User, change: PolicyChange): Promise<boolean> {
  const { stream, topic, policy, now } = change;
  if (!(await tx.userTopics.set(user.realmId, user.id, stream.id, topic, policy, now))) return false;
  publishOnCommit(ctx, tx, {
    realmId: user.realmId,
    userIds: [user.id],
    event: { type: 'user_topic', stream_id: stream.id, topic_name: topic, last_updated: now, visibility_policy: policy },
  });
  if (!change.skipLegacyEvent) {
    const mutedTopics = await legacyMutedTopics(tx, user);
    publishOnCommit(ctx, tx, { realmId: user.realmId, userIds: [user.id], event: { type: 'muted_topics', muted_topics: mutedTopics } });
  }
  return true;
}

/**
 * The user's rows that the user may still be shown: rows of archived channels are left out, as
 * in the reference, and so are rows of channels the user can no longer see at all (a private
 * channel they left), so that nothing of such a channel reaches them.
 */
export async function visibleUserTopics(tx: Tx, user: User): Promise<Array<UserTopic & { stream: Stream }>> {
  const rows = await tx.userTopics.list(user.realmId, user.id);
  if (rows.length === 0) return [];
  const streams = new Map((await tx.streams.list(user.realmId, [...new Set(rows.map((r) => r.streamId))])).map((s) => [s.id, s]));
  const subscribed = new Set((await tx.subscriptions.forUser(user.realmId, user.id)).filter((s) => s.active).map((s) => s.streamId));
  return rows.flatMap((row) => {
    const stream = streams.get(row.streamId);
    if (!stream || stream.isArchived || !hasMetadataAccess(user, stream, subscribed.has(stream.id))) return [];
    return [{ ...row, stream }];
  });
}

/** The legacy `muted_topics` list: `[channel name, topic, last_updated]` of each muted topic. */
export async function legacyMutedTopics(tx: Tx, user: User): Promise<Array<[string, string, number]>> {
  return (await visibleUserTopics(tx, user))
    .filter((row) => row.visibilityPolicy === VISIBILITY_POLICY.muted)
    .map((row) => [row.stream.name, row.topic, row.lastUpdated]);
}
