/**
 * Channel and subscription objects as the API sends them (SHAPES.md 5.3, 5.4): GET /streams,
 * GET /users/me/subscriptions, the register snapshot and stream/subscription events.
 */
import { CHANNEL_GROUP_SETTINGS, channelGroup, streamPostPolicy } from '../access/channel-rules.js';
import { type ApiAnonymousGroup, groupSettingForApi } from '../access/system-groups.js';
import type { ChannelGroupSetting } from '../access/channel-rules.js';
import type { TopicsPolicy } from '../storage/channel-types.js';
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

/** A group setting's value: a named group's ID, or an anonymous set of members and subgroups. */
export type ApiGroupSettingValue = number | ApiAnonymousGroup;

/**
 * A channel (SHAPES.md 5.3) as GET /streams, GET /streams/{id}, register's `streams` and
 * stream events carry it. The `can_*_group` settings say who may do what in the channel.
 */
export interface ApiStream extends Record<ChannelGroupSetting, ApiGroupSettingValue> {
  stream_id: number;
  name: string;
  /** Markdown source. */
  description: string;
  rendered_description: string;
  /** UNIX seconds. */
  date_created: number;
  creator_id: number | null;
  invite_only: boolean;
  is_web_public: boolean;
  is_archived: boolean;
  history_public_to_subscribers: boolean;
  /** null: the realm's policy; -1: forever. */
  message_retention_days: number | null;
  /** null while the channel has no messages. */
  first_message_id: number | null;
  folder_id: number | null;
  topics_policy: TopicsPolicy;
  is_recently_active: boolean;
  /** Always null: no traffic statistics are kept. */
  stream_weekly_traffic: number | null;
  subscriber_count: number;
  /** Legacy: 1 anyone, 2 administrators only, 3 full members, 4 moderators. */
  stream_post_policy: number;
  is_announcement_only: boolean;
  default_push_notifications: boolean;
  /** GET /streams with `include_default`: whether new users join the channel. */
  is_default?: boolean;
}

/** The personal part of a subscription: how the user shows and is notified of the channel. */
export interface ApiSubscriptionFields {
  /** `#rrggbb`. */
  color: string;
  is_muted: boolean;
  /** Legacy inverse of `is_muted`. */
  in_home_view: boolean;
  pin_to_top: boolean;
  /** The five notification settings: null inherits the user's own default. */
  desktop_notifications: boolean | null;
  audible_notifications: boolean | null;
  push_notifications: boolean | null;
  email_notifications: boolean | null;
  wildcard_mentions_notify: boolean | null;
}

/**
 * A subscription (SHAPES.md 5.4): the channel's fields and the user's own, as
 * GET /users/me/subscriptions and register's `subscriptions` carry it. Some callers add
 * `subscribers` (the user IDs) when asked to.
 */
export interface ApiSubscription extends ApiStream, ApiSubscriptionFields {
  subscribers?: number[];
  /** Instead of `subscribers` for a large channel when the client asked for `partial`. */
  partial_subscribers?: number[];
}

/** The channel object; `subscriberCount` counts active subscribers who are active users. */
export function formatStream(stream: Stream, subscriberCount: number): ApiStream {
  const policy = streamPostPolicy(stream);
  const groups = Object.fromEntries(CHANNEL_GROUP_SETTINGS.map((name) => [name, groupSettingForApi(channelGroup(stream, name))])) as Record<
    ChannelGroupSetting,
    ApiGroupSettingValue
  >;
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
export function subscriptionFields(subscription: Subscription): ApiSubscriptionFields {
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
export function formatSubscription(stream: Stream, subscription: Subscription, subscriberCount: number): ApiSubscription {
  return { ...formatStream(stream, subscriberCount), ...subscriptionFields(subscription) };
}

/**
 * For clients without the `notification_settings_null` capability: the subscription object
 * with each inherited (null) notification setting replaced by the user's own default.
 */
export function withNotificationDefaults<T extends Partial<ApiSubscriptionFields>>(user: User, object: T): T {
  const out = { ...object };
  for (const [name, setting] of Object.entries(NOTIFICATION_SETTINGS) as [NotificationSetting, (typeof NOTIFICATION_SETTINGS)[NotificationSetting]][]) {
    if (out[name] === null) out[name] = userSetting(user, setting) as boolean;
  }
  return out;
}
