/**
 * The push part of the storage contract: the mobile devices a user registered for push
 * notifications (the reference's PushDeviceToken), and which of a user's messages have a
 * notification showing on their devices (the reference's active_mobile_push_notification flag),
 * so that reading or deleting a message can take the notification back.
 * See types.ts for the isolation rules every store follows.
 */

/** `fcm`: Android (the reference's legacy name `gcm`); `apns`: iOS. */
export type PushTokenKind = 'fcm' | 'apns';

/** A mobile device's push token (FCM or APNs) registered by a user. */
export interface PushDeviceToken {
  userId: number;
  kind: PushTokenKind;
  token: string;
  /** The iOS app's bundle ID (APNs tokens only), null for FCM. */
  iosAppId: string | null;
  /** UNIX seconds. */
  dateCreated: number;
}

/**
 * A logged-in device (the reference's Device, FL 468) and its E2EE push registration. The push
 * key and token IDs are kept as the base64 text the client sent (token IDs re-encoded canonically).
 */
export interface ClientDevice {
  id: number;
  userId: number;
  /** Base64 of the 33-byte key (a 0x31 prefix, then the secretbox key). */
  pushKey: string | null;
  /** Unsigned 32-bit. */
  pushKeyId: number | null;
  pushTokenKind: PushTokenKind | null;
  /** The registered token's ID: base64 of 8 bytes. */
  pushTokenId: string | null;
  /** A token whose registration is under way. */
  pendingPushTokenId: string | null;
  /** UNIX seconds. */
  pushTokenLastUpdatedTimestamp: number | null;
  pushRegistrationErrorCode: string | null;
}

/** Fields a change may set; undefined fields are left alone, null clears. */
export type ClientDevicePatch = Partial<Omit<ClientDevice, 'id' | 'userId'>>;

/** Push tokens and end-to-end encrypted push devices. */
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
  /** Removes every token of the user's; answers how many there were. */
  removeTokens(realmId: number, userId: number): Promise<number>;
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
  /** Creates a device with nothing registered; undefined (nothing written) for a user of another realm. */
  insertDevice(realmId: number, userId: number): Promise<ClientDevice | undefined>;
  /** The user's devices by ID, ascending; `userIds` limits them to those users. */
  devicesOf(realmId: number, userIds: readonly number[]): Promise<ClientDevice[]>;
  /** One of the user's devices; undefined for another user's or an unknown ID. */
  device(realmId: number, userId: number, id: number): Promise<ClientDevice | undefined>;
  /** Changes one of the user's devices; the changed device, or undefined when the user has none of that ID. */
  updateDevice(realmId: number, userId: number, id: number, patch: ClientDevicePatch): Promise<ClientDevice | undefined>;
  /** Deletes one of the user's devices; false when the user has none of that ID. */
  deleteDevice(realmId: number, userId: number, id: number): Promise<boolean>;
}
