/**
 * The push part of the storage contract: the mobile devices a user registered for push
 * notifications (the reference's PushDeviceToken), and which of a user's messages have a
 * notification showing on their devices (the reference's active_mobile_push_notification flag),
 * so that reading or deleting a message can take the notification back.
 * See types.ts for the isolation rules every store follows.
 */

/** `fcm`: Android (the reference's legacy name `gcm`); `apns`: iOS. */
export type PushTokenKind = 'fcm' | 'apns';

export interface PushDeviceToken {
  userId: number;
  kind: PushTokenKind;
  token: string;
  /** The iOS app's bundle ID (APNs tokens only), null for FCM. */
  iosAppId: string | null;
  /** UNIX seconds. */
  dateCreated: number;
}

export interface PushStore {
  /** The tokens of the realm's users among `userIds`, oldest first. */
  tokensOf(realmId: number, userIds: readonly number[]): Promise<PushDeviceToken[]>;
  /**
   * Registers a token for a user of the realm. Registering a (user, kind, token) again changes
   * nothing and answers false (the reference keeps the first row); a user of another realm gets
   * nothing written and false.
   */
  addToken(realmId: number, token: PushDeviceToken): Promise<boolean>;
  /** Removes one of the user's tokens; false when the user has no such token of that kind. */
  removeToken(realmId: number, userId: number, kind: PushTokenKind, token: string): Promise<boolean>;
  /**
   * Records that the user was notified of these messages: only their unread copies of the
   * realm's messages, not yet recorded. Answers the IDs newly recorded, ascending.
   */
  markNotified(realmId: number, userId: number, messageIds: readonly number[]): Promise<number[]>;
  /**
   * Forgets the notifications of these messages for each of `userIds`; answers, per user who
   * had any, the message IDs forgotten (ascending). Works for messages already deleted.
   */
  clearNotified(realmId: number, userIds: readonly number[], messageIds: readonly number[]): Promise<Map<number, number[]>>;
}
