/**
 * Applying the automatic topic visibility settings (the reference's do_send_messages,
 * do_add_reaction and do_update_message): sending or reacting may follow or unmute the actor's
 * topic, a personal mention may follow the mentioned recipient's, and a move that makes a
 * message the first of its topic may follow or unmute its sender's. Every change goes through
 * setUserTopicPolicy, so its user_topic events reach only the user whose policy changed. Only
 * channel topics have policies: direct messages never reach these functions.
 */
import { unixSeconds } from '../clock.js';
import type { Ctx } from '../context.js';
import { hasContentAccess } from '../access/channel-rules.js';
import { readsChannelHistory } from './holders.js';
import { type AutomaticSettings, neverAutomatic, policyForMovedInitiation, policyForParticipation, policyForSend } from './automatic-visibility.js';
import { userSetting } from '../settings/user-settings.js';
import { FLAG_BITS, type Stream, type Subscription, type Tx, type User, VISIBILITY_POLICY, type VisibilityPolicy } from '../storage/types.js';
import { setUserTopicPolicy } from './user-topic-policy.js';

const settingsOf = (user: User): AutomaticSettings => ({
  follow: userSetting(user, 'automatically_follow_topics_policy'),
  unmuteInMutedChannels: userSetting(user, 'automatically_unmute_topics_in_muted_streams_policy'),
});

/** The user's policy for the topic (topics compare ignoring case), 0 when none is set. */
async function currentPolicy(tx: Tx, user: User, stream: Stream, topic: string): Promise<VisibilityPolicy> {
  const rows = await tx.userTopics.forTopic(user.realmId, stream.id, topic);
  return rows.find((r) => r.userId === user.id)?.visibilityPolicy ?? VISIBILITY_POLICY.inherit;
}

/** Where a channel message was just stored, and who got it. */
export interface SentToTopic {
  stream: Stream;
  topic: string;
  messageId: number;
  /** The channel's active subscribers when it was sent (the sender too if subscribed). */
  recipientIds: readonly number[];
  /** Each copy holder's flags, to find who is personally (or through a group) mentioned. */
  flagsByUser: ReadonlyMap<number, number>;
  /** The sender's subscription to the channel when the send already read it (null: none). */
  senderSubscription?: Subscription | null;
}

/**
 * After a channel message is stored: the sender's settings may follow or unmute the topic
 * (never for bots, the Notification Bot included), then mentioned recipients who asked to
 * follow topics where they are mentioned follow it, unless they muted or already follow it.
 * Returns the sender's new policy (POST /messages' automatic_new_visibility_policy).
 */
export async function applySendPolicies(ctx: Ctx, tx: Tx, sender: User, sent: SentToTopic): Promise<VisibilityPolicy | undefined> {
  const now = unixSeconds(ctx.clock);
  const senderPolicy = await senderPolicyAfterSend(tx, sender, sent);
  if (senderPolicy !== undefined) await setUserTopicPolicy(ctx, tx, sender, { stream: sent.stream, topic: sent.topic, policy: senderPolicy, now });

  const mentioned = sent.recipientIds.filter((id) => ((sent.flagsByUser.get(id) ?? 0) & FLAG_BITS.mentioned) !== 0);
  if (mentioned.length === 0) return senderPolicy;
  const existing = new Map((await tx.userTopics.forTopic(sender.realmId, sent.stream.id, sent.topic)).map((r) => [r.userId, r.visibilityPolicy]));
  for (const user of await tx.users.list(sender.realmId, mentioned)) {
    if (!user.isActive || user.isBot || !userSetting(user, 'automatically_follow_topics_where_mentioned')) continue;
    // An explicitly muted topic stays muted; a followed one has nothing to change.
    const current = existing.get(user.id);
    if (current === VISIBILITY_POLICY.muted || current === VISIBILITY_POLICY.followed) continue;
    await setUserTopicPolicy(ctx, tx, user, { stream: sent.stream, topic: sent.topic, policy: VISIBILITY_POLICY.followed, now });
  }
  return senderPolicy;
}

async function senderPolicyAfterSend(tx: Tx, sender: User, sent: SentToTopic): Promise<VisibilityPolicy | undefined> {
  const settings = settingsOf(sender);
  if (sender.isBot || neverAutomatic(settings)) return undefined;
  const subscription = sent.senderSubscription !== undefined
    ? (sent.senderSubscription ?? undefined)
    : await tx.subscriptions.get(sender.realmId, sender.id, sent.stream.id);
  const subscribed = subscription?.active === true;
  const current = await currentPolicy(tx, sender, sent.stream, sent.topic);
  // Initiating means no earlier message of the topic was visible to the sender: judged by their
  // own copies where they cannot read the channel's history, so nothing hidden leaks.
  const initiates = async () =>
    !(await tx.messages.topicHasMessage(sender.realmId, sent.stream.id, sent.topic, {
      except: [sent.messageId],
      heldBy: readsChannelHistory(sender, sent.stream, subscribed) ? undefined : sender.id,
    }));
  return policyForSend(settings, subscribed && subscription!.isMuted, current, initiates);
}

/**
 * After a reaction to a channel message: a reactor subscribed to the channel whose settings
 * name participation follows (or, in a muted channel, unmutes) the topic.
 */
export async function applyReactionPolicy(ctx: Ctx, tx: Tx, user: User, stream: Stream, topic: string): Promise<void> {
  const settings = settingsOf(user);
  if (user.isBot || neverAutomatic(settings)) return;
  const subscription = await tx.subscriptions.get(user.realmId, user.id, stream.id);
  if (subscription?.active !== true) return;
  const policy = policyForParticipation(settings, subscription.isMuted, await currentPolicy(tx, user, stream, topic));
  if (policy !== undefined) await setUserTopicPolicy(ctx, tx, user, { stream, topic, policy, now: unixSeconds(ctx.clock) });
}

/** Where a move put messages: the target message and every message the move took. */
export interface MovedToTopic {
  stream: Stream;
  topic: string;
  /** The message the request named (the only one whose sender the rule considers). */
  targetId: number;
  movedIds: readonly number[];
}

/**
 * After a move that did not take the whole topic (a whole-topic move carries the policies
 * along instead): when the target message is now the first message of its new topic that its
 * sender can see, the sender's "on initiation" settings follow or unmute that topic. Never for
 * bots (the Notification Bot included), nor for a sender who cannot read the destination
 * channel. Judged after the messages moved; the moved messages themselves are left out.
 */
export async function applyMovePolicy(ctx: Ctx, tx: Tx, sender: User, moved: MovedToTopic): Promise<void> {
  const settings = settingsOf(sender);
  if (sender.isBot || neverAutomatic(settings)) return;
  const subscription = await tx.subscriptions.get(sender.realmId, sender.id, moved.stream.id);
  const subscribed = subscription?.active === true;
  if (!hasContentAccess(sender, moved.stream, subscribed)) return;
  const policy = policyForMovedInitiation(settings, subscribed && subscription!.isMuted, await currentPolicy(tx, sender, moved.stream, moved.topic));
  if (policy === undefined) return;
  // Where the sender cannot read the channel's history, only their own copies count, so nothing hidden leaks.
  const seesEarlier = await tx.messages.topicHasMessage(sender.realmId, moved.stream.id, moved.topic, {
    except: moved.movedIds,
    before: moved.targetId,
    heldBy: readsChannelHistory(sender, moved.stream, subscribed) ? undefined : sender.id,
  });
  if (!seesEarlier) await setUserTopicPolicy(ctx, tx, sender, { stream: moved.stream, topic: moved.topic, policy, now: unixSeconds(ctx.clock) });
}
