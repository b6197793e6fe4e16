/**
 * Whether and why a message's recipient gets a push notification: the reference's
 * UserMessageNotificationsData.get_push_notification_trigger with the recipient sets of
 * get_recipient_info, for one recipient at a time.
 */
import { userSetting } from '../settings/user-settings.js';
import { FLAG_BITS, type Subscription, type User, VISIBILITY_POLICY } from '../storage/types.js';
import type { PushTrigger } from './notifier.js';

const { muted: MUTED, unmuted: UNMUTED, followed: FOLLOWED } = VISIBILITY_POLICY;

/** What the decision needs to know about one recipient of one message. */
export interface PushCandidate {
  user: User;
  /** The recipient's flag bits on the message. */
  flags: number;
  /** Away: no client receiving messages, or no recent activity (push/idle.ts). */
  idle: boolean;
  /** Channel messages: the recipient's active subscription (undefined when not subscribed) and topic policy. */
  channel?: { subscription: Subscription | undefined; visibilityPolicy: number };
}

/**
 * The reference's user_allows_notifications_in_StreamTopic: a muted channel (unless the topic
 * is unmuted) or a muted topic never notifies; otherwise the channel's own setting wins over the
 * user's default.
 */
function allowedInTopic(subscription: Subscription, policy: number, channelSetting: boolean | null, userDefault: boolean): boolean {
  if (subscription.isMuted && policy !== UNMUTED) return false;
  if (policy === MUTED) return false;
  return channelSetting ?? userDefault;
}

/**
 * The reasons not to notify that hold whatever the message says (the reference's bots rule,
 * online push and trivially_should_not_notify): checked first, before reading anything more.
 * The reference's muted-sender rule is the read flag: see push/dispatch.ts.
 */
export function mayBeNotified(candidate: Pick<PushCandidate, 'user' | 'idle'>, senderId: number): boolean {
  const { user } = candidate;
  if (user.isBot || !user.isActive || user.id === senderId) return false;
  return candidate.idle || userSetting(user, 'enable_online_push_notifications');
}

/** The trigger of a push notification to `candidate` for a message from `senderId`, or null for none. */
export function pushTrigger(candidate: PushCandidate, senderId: number, direct: boolean): PushTrigger | null {
  const { user, flags } = candidate;
  if (!mayBeNotified(candidate, senderId)) return null;

  // Direct messages and mentions obey the personal setting (the reference's dm_mention_push_disabled).
  const personal = userSetting(user, 'enable_offline_push_notifications');
  if (direct) return personal ? 'private_message' : null;
  if (personal && flags & FLAG_BITS.mentioned) return 'mentioned';

  const subscription = candidate.channel?.subscription;
  if (!subscription) return null;
  const policy = candidate.channel!.visibilityPolicy;
  const followed = policy === FOLLOWED;
  const topicWildcard = (flags & FLAG_BITS.topic_wildcard_mentioned) !== 0;
  const channelWildcard = (flags & FLAG_BITS.stream_wildcard_mentioned) !== 0;
  if (personal && (topicWildcard || channelWildcard)) {
    if (followed && userSetting(user, 'enable_followed_topic_wildcard_mentions_notify')) {
      return topicWildcard ? 'topic_wildcard_mentioned_in_followed_topic' : 'stream_wildcard_mentioned_in_followed_topic';
    }
    if (allowedInTopic(subscription, policy, subscription.wildcardMentionsNotify, userSetting(user, 'wildcard_mentions_notify'))) {
      return topicWildcard ? 'topic_wildcard_mentioned' : 'stream_wildcard_mentioned';
    }
  }
  if (followed && userSetting(user, 'enable_followed_topic_push_notifications')) return 'followed_topic_push_notify';
  if (allowedInTopic(subscription, policy, subscription.pushNotifications, userSetting(user, 'enable_stream_push_notifications'))) return 'stream_push_notify';
  return null;
}
