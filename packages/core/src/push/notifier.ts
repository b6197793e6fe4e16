/**
 * The pluggable push notifier: what the server owner plugs in to deliver mobile (or other)
 * push notifications, since the reference's push bouncer is not reachable from here. The core
 * decides who is notified of what, builds the reference's payloads, and calls the notifier after
 * commit, off the request path; it never waits for it, so a notifier that throws or hangs
 * affects no request. A notifier owns its own timeouts and retries.
 */
import type { PushDeviceToken, PushTokenKind } from '../storage/types.js';

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

/** A flat payload of strings, as FCM data messages carry it (the reference's get_message_payload_gcm). */
export type PushData = Record<string, string>;

/** The JSON a notifier encrypts for an E2EE device (api_docs/mobile-notifications.md): typed values. */
export type E2eePushData = Record<string, string | number | number[]>;

/** The visible part of an APNs notification (the reference's get_message_payload_apns). */
export interface PushAlert {
  title: string;
  subtitle: string;
  body: string;
}

/** A device registered for end-to-end encrypted notifications (POST /mobile_push/register, FL 468). */
export interface E2eePushDevice {
  deviceId: number;
  tokenKind: PushTokenKind;
  /** The registered token's ID (base64 of 8 bytes), as the push service knows it. */
  tokenId: string;
  /** Base64 of the 33-byte key the payload is to be encrypted with, and the key's ID. */
  pushKey: string;
  pushKeyId: number;
}

/** What POST /mobile_push/register hands on: the client's registration, sealed for the push service. */
export interface PushDeviceRegistration {
  realmId: number;
  userId: number;
  deviceId: number;
  tokenKind: PushTokenKind;
  tokenId: string;
  bouncerPublicKey: string;
  encryptedPushRegistration: string;
}

/**
 * How a registration ended: registered, or failed with an API error code the client acts on
 * (`INVALID_BOUNCER_PUBLIC_KEY`: update the app; `REQUEST_EXPIRED`: retry with a fresh payload).
 */
export type PushRegistrationOutcome = { registered: true } | { registered: false; errorCode: string };

/** One user to notify of one new message. */
export interface MessagePushNotification {
  realmId: number;
  userId: number;
  messageId: number;
  trigger: PushTrigger;
  /** The user's registered device tokens; possibly none (a notifier may have its own). */
  devices: PushDeviceToken[];
  /** The user's devices registered for E2EE notifications, to encrypt `data` for. */
  e2eeDevices: E2eePushDevice[];
  /** The legacy data payload: `event: "message"`, the realm, sender, conversation and content. */
  data: PushData;
  /** The same for E2EE devices: `type: "message"`, `message_id`, `channel_id` or `recipient_user_ids`, ... */
  e2eeData: E2eePushData;
  /** Title, subtitle and body for platforms that show an alert. */
  alert: PushAlert;
}

/** Notifications to take back from one user's devices: the messages were read or deleted. */
export interface PushRemoval {
  realmId: number;
  userId: number;
  /** Ascending; the newest 200 at most, as the reference sends (older ones are forgotten all the same). */
  messageIds: number[];
  devices: PushDeviceToken[];
  e2eeDevices: E2eePushDevice[];
  /** `event: "remove"`, `zulip_message_ids` (comma-joined) and, for old clients, `zulip_message_id`. */
  data: PushData;
  /** `type: "remove"` and `message_ids` as a list, for E2EE devices. */
  e2eeData: E2eePushData;
}

/**
 * A test notification to the user's devices, or the one named: legacy tokens for
 * POST /mobile_push/test_notification, E2EE devices for POST /mobile_push/e2ee/test_notification.
 */
export interface PushTestNotification {
  realmId: number;
  userId: number;
  devices: PushDeviceToken[];
  e2eeDevices: E2eePushDevice[];
  /** The base payload with `event: "test"` and `time`, as strings. */
  data: PushData;
  /** `type: "test"` with the realm, the user and `time`, for E2EE devices. */
  e2eeData: E2eePushData;
  /** "Test notification" and "This is a test notification from {realm name} ({realm url})." */
  alert: PushAlert;
}

/** Delivers push notifications; plugged in with `createContext({ pushNotifier })`. */
export interface PushNotifier {
  notify(notification: MessagePushNotification): void | Promise<void>;
  remove(removal: PushRemoval): void | Promise<void>;
  /**
   * Completes an E2EE registration with the push service (the reference's bouncer), after the
   * request that asked for it has been answered. Without it, POST /mobile_push/register answers
   * PUSH_SERVICE_NOT_CONFIGURED. A throw counts as REQUEST_EXPIRED (the client retries afresh);
   * a registration never answered stays pending.
   */
  registerDevice?(registration: PushDeviceRegistration): Promise<PushRegistrationOutcome>;
  /** Sends a test notification; without it, a test request succeeds and sends nothing (as a reference server without push). */
  test?(notification: PushTestNotification): void | Promise<void>;
}
