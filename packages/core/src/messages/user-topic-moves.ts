/**
 * Topic visibility policies follow their topic when a move takes all of it (the reference's
 * do_update_message): with change_all, or when no message of the old topic the mover can read
 * stays behind. Users who cannot read the new channel lose their policy instead, so that no one
 * keeps a row in a channel they cannot see. When the destination topic already has messages,
 * each user keeps the more visible of the two policies.
 */
import { hasContentAccess } from '../access/channel-rules.js';
import type { Ctx } from '../context.js';
import type { Readable } from '../queries/messages.js';
import { type Message, type Realm, type Stream, type Tx, type User, VISIBILITY_POLICY, type VisibilityPolicy } from '../storage/types.js';
import { setUserTopicPolicy } from './user-topic-policy.js';

export interface UserTopicMove {
  from: Stream;
  fromTopic: string;
  to: Stream;
  toTopic: string;
  /** Whether the move takes the whole topic (as the mover sees it): only then do policies move. */
  movedAll: boolean;
  /** Whether the destination topic had messages besides the moved ones (policies then merge). */
  destinationHadMessages: boolean;
}

/** Read before the messages change: whether the move takes the whole topic, and whether it joins an existing one. */
export async function planUserTopicMove(
  tx: Tx,
  realm: Realm,
  mover: User,
  readable: Readable,
  moved: readonly Message[],
  allMode: boolean,
  where: { from: Stream; fromTopic: string; to: Stream; toTopic: string },
): Promise<UserTopicMove> {
  const movedIds = new Set(moved.map((m) => m.id));
  const others = async (stream: Stream, topic: string) =>
    (await tx.messages.topicMessageIds(realm.id, stream.id, topic)).filter((id) => !movedIds.has(id));
  let movedAll = allMode;
  if (!movedAll) {
    const left = await others(where.from, where.fromTopic);
    const visibleLeft = readable.scope.sharedHistoryStreamIds.includes(where.from.id) ? left.length : (await tx.messages.flagsOf(mover.id, left)).size;
    movedAll = visibleLeft === 0;
  }
  return { ...where, movedAll, destinationHadMessages: (await others(where.to, where.toTopic)).length > 0 };
}

/** The reference's get_visibility_policy_after_merge: the most visible policy wins. */
function mergedPolicy(a: VisibilityPolicy, b: VisibilityPolicy): VisibilityPolicy {
  const both = new Set([a, b]);
  for (const policy of [VISIBILITY_POLICY.followed, VISIBILITY_POLICY.unmuted, VISIBILITY_POLICY.inherit] as const) {
    if (both.has(policy)) return policy;
  }
  return VISIBILITY_POLICY.muted;
}

/** Moves (or merges, or drops) every user's policy of the old topic, after the messages moved. */
export async function moveUserTopics(ctx: Ctx, tx: Tx, realm: Realm, move: UserTopicMove, now: number): Promise<void> {
  if (!move.movedAll) return;
  const origRows = await tx.userTopics.forTopic(realm.id, move.from.id, move.fromTopic);
  const targetRows = await tx.userTopics.forTopic(realm.id, move.to.id, move.toTopic);
  const userIds = [...new Set([...origRows, ...targetRows].map((r) => r.userId))];
  if (userIds.length === 0) return;
  const users = new Map((await tx.users.list(realm.id, userIds)).map((u) => [u.id, u]));
  const subscribers = new Set(await tx.subscriptions.activeSubscriberIds(realm.id, move.to.id));
  const channelChanged = move.from.id !== move.to.id;

  const orig = new Map<number, VisibilityPolicy>();
  for (const row of origRows) {
    const user = users.get(row.userId)!;
    if (channelChanged && !hasContentAccess(user, move.to, subscribers.has(user.id))) {
      await setUserTopicPolicy(ctx, tx, user, { stream: move.from, topic: move.fromTopic, policy: VISIBILITY_POLICY.inherit, now });
    } else {
      orig.set(row.userId, row.visibilityPolicy);
    }
  }
  const target = new Map<number, VisibilityPolicy>(targetRows.map((r) => [r.userId, r.visibilityPolicy]));
  for (const userId of new Set([...orig.keys(), ...target.keys()])) {
    const user = users.get(userId)!;
    const before = orig.get(userId) ?? VISIBILITY_POLICY.inherit;
    const existing = target.get(userId) ?? VISIBILITY_POLICY.inherit;
    if (before !== VISIBILITY_POLICY.inherit) {
      // The legacy muted_topics list goes out with the change below, as in the reference.
      await setUserTopicPolicy(ctx, tx, user, { stream: move.from, topic: move.fromTopic, policy: VISIBILITY_POLICY.inherit, now, skipLegacyEvent: true });
    }
    const after = move.destinationHadMessages ? mergedPolicy(before, existing) : before;
    if (after === existing && before === VISIBILITY_POLICY.inherit) continue;
    await setUserTopicPolicy(ctx, tx, user, { stream: move.to, topic: move.toTopic, policy: after, now });
  }
}
