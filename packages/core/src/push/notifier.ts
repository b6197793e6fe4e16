/**
 * The pluggable push notifier: what the server owner plugs in to deliver mobile (or other)
 * push notifications, since the reference's push bouncer is not reachable from here. The core
 * decides who is notified of what, builds the reference's payloads, and calls the notifier after
 * commit, off the request path; it never waits for it, so a notifier that throws or hangs
 * affects no request. A notifier owns its own timeouts and retries.
 */
import type { PushDeviceToken } from '../storage/types.js';

/**
 * Why a user is notified (the reference's NotificationTriggers), in the reference's order of
 * precedence: a direct message, a personal or group mention, a wildcard mention in a followed
 * topic, a wildcard mention, a followed topic, a channel with push notifications on.
 */
export type PushTrigger =
  | 'private_message'
  | 'mentioned'
  | 'topic_wildcard_mentioned_in_followed_topic'
  | 'stream_wildcard_mentioned_in_followed_topic'
  | 'topic_wildcard_mentioned'
  | 'stream_wildcard_mentioned'
  | 'followed_topic_push_notify'
  | 'stream_push_notify';

/** A flat payload as FCM's data messages carry it (the reference's get_message_payload_gcm). */
export type PushData = Record<string, string | number | boolean>;

/** The visible part of an APNs notification (the reference's get_message_payload_apns). */
export interface PushAlert {
  title: string;
  subtitle: string;
  body: string;
}

/** One user to notify of one new message. */
export interface MessagePushNotification {
  realmId: number;
  userId: number;
  messageId: number;
  trigger: PushTrigger;
  /** The user's registered device tokens; possibly none (a notifier may have its own). */
  devices: PushDeviceToken[];
  /** The data payload: `event: "message"`, the realm, sender, conversation and content. */
  data: PushData;
  /** Title, subtitle and body for platforms that show an alert. */
  alert: PushAlert;
}

/** Notifications to take back from one user's devices: the messages were read or deleted. */
export interface PushRemoval {
  realmId: number;
  userId: number;
  /** Ascending. */
  messageIds: number[];
  devices: PushDeviceToken[];
  /** `event: "remove"`, `zulip_message_ids` (comma-joined) and, for old clients, `zulip_message_id`. */
  data: PushData;
}

/** Delivers push notifications; plugged in with `createContext({ pushNotifier })`. */
export interface PushNotifier {
  notify(notification: MessagePushNotification): void | Promise<void>;
  remove(removal: PushRemoval): void | Promise<void>;
}
