/**
 * Channel and subscription objects as the API sends them (SHAPES.md 5.3, 5.4): GET /streams,
 * GET /users/me/subscriptions, the register snapshot and stream/subscription events.
 */
import { CHANNEL_GROUP_SETTINGS, channelGroup, streamPostPolicy } from '../access/channel-rules.js';
import { groupSettingForApi } from '../access/system-groups.js';
import { userSetting } from '../settings/user-settings.js';
import type { Realm, Stream, Subscription, User } from '../storage/types.js';
import { renderMessage } from '../markdown/index.js';
import { renderContextFor } from '../messages/render-context.js';

/** A channel description as HTML. The one place descriptions are rendered. */
/**
 * A channel's (or channel folder's) description as HTML: Markdown in the message dialect, as the
 * reference's render_stream_description. Nothing realm-specific is resolved (no mentions or
 * channel links): descriptions are shown to everyone who may see the channel.
 */
export const renderChannelDescription = (realm: Realm, description: string, now: Date) =>
  renderMessage(description, renderContextFor(realm, [], [], now)).html;

/** The channel object; `subscriberCount` counts active subscribers who are active users. */
export function formatStream(stream: Stream, subscriberCount: number): Record<string, unknown> {
  const policy = streamPostPolicy(stream);
  const groups = Object.fromEntries(CHANNEL_GROUP_SETTINGS.map((name) => [name, groupSettingForApi(channelGroup(stream, name))]));
  return {
    stream_id: stream.id,
    name: stream.name,
    description: stream.description,
    rendered_description: stream.renderedDescription,
    date_created: stream.dateCreated,
    creator_id: stream.creatorId,
    invite_only: stream.inviteOnly,
    is_web_public: stream.isWebPublic,
    is_archived: stream.isArchived,
    history_public_to_subscribers: stream.historyPublicToSubscribers,
    message_retention_days: stream.messageRetentionDays,
    first_message_id: stream.firstMessageId,
    folder_id: stream.folderId,
    topics_policy: stream.topicsPolicy,
    is_recently_active: stream.isRecentlyActive,
    // No traffic statistics are kept: null is the reference's "no information".
    stream_weekly_traffic: null,
    subscriber_count: subscriberCount,
    stream_post_policy: policy,
    is_announcement_only: policy === 2,
    ...groups,
    default_push_notifications: stream.defaultPushNotifications,
  };
}

/** The five per-channel notification settings and the personal setting each inherits from. */
export const NOTIFICATION_SETTINGS = {
  desktop_notifications: 'enable_stream_desktop_notifications',
  audible_notifications: 'enable_stream_audible_notifications',
  push_notifications: 'enable_stream_push_notifications',
  email_notifications: 'enable_stream_email_notifications',
  wildcard_mentions_notify: 'wildcard_mentions_notify',
} as const;

export type NotificationSetting = keyof typeof NOTIFICATION_SETTINGS;

/** The record field of each notification setting. */
export const NOTIFICATION_FIELDS: Record<NotificationSetting, keyof Subscription> = {
  desktop_notifications: 'desktopNotifications',
  audible_notifications: 'audibleNotifications',
  push_notifications: 'pushNotifications',
  email_notifications: 'emailNotifications',
  wildcard_mentions_notify: 'wildcardMentionsNotify',
};

/** The personal fields of a subscription object. */
export function subscriptionFields(subscription: Subscription): Record<string, unknown> {
  return {
    color: subscription.color,
    is_muted: subscription.isMuted,
    in_home_view: !subscription.isMuted,
    pin_to_top: subscription.pinToTop,
    desktop_notifications: subscription.desktopNotifications,
    audible_notifications: subscription.audibleNotifications,
    push_notifications: subscription.pushNotifications,
    email_notifications: subscription.emailNotifications,
    wildcard_mentions_notify: subscription.wildcardMentionsNotify,
  };
}

/** The subscription object: the channel's fields and the user's. */
export function formatSubscription(stream: Stream, subscription: Subscription, subscriberCount: number): Record<string, unknown> {
  return { ...formatStream(stream, subscriberCount), ...subscriptionFields(subscription) };
}

/**
 * For clients without the `notification_settings_null` capability: the subscription object
 * with each inherited (null) notification setting replaced by the user's own default.
 */
export function withNotificationDefaults(user: User, object: Record<string, unknown>): Record<string, unknown> {
  const out = { ...object };
  for (const [name, setting] of Object.entries(NOTIFICATION_SETTINGS)) {
    if (out[name] === null) out[name] = userSetting(user, setting);
  }
  return out;
}
