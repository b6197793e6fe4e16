/**
 * The user-status part of the storage contract: the status each user set (text and emoji), at
 * most one row per user. A row whose fields are all empty is a status that was cleared; it stays,
 * as the reference keeps its row. See types.ts for the isolation rules every store follows.
 */

export interface UserStatus {
  userId: number;
  /** '' when the user has no status text. */
  statusText: string;
  /** '' when the user has no status emoji (then code is '' and type 'unicode_emoji'). */
  emojiName: string;
  emojiCode: string;
  reactionType: 'unicode_emoji' | 'realm_emoji' | 'service_extra_emoji';
  /** Unix seconds of the last change. */
  timestamp: number;
}

/** The fields a change sets; undefined fields keep their value (a new row starts empty). */
export type UserStatusChange = Partial<Pick<UserStatus, 'statusText' | 'emojiName' | 'emojiCode' | 'reactionType'>>;

/** Users' statuses (text, emoji, away). */
export interface UserStatusStore {
  /** The rows of the realm's users, by user ID. */
  list(realmId: number): Promise<UserStatus[]>;
  /** The user's row, or undefined when they never set a status. */
  get(realmId: number, userId: number): Promise<UserStatus | undefined>;
  /**
   * Creates or updates the user's row with the change and the timestamp, and returns the row as
   * stored; undefined, writing nothing, when the user is not in the realm.
   */
  set(realmId: number, userId: number, change: UserStatusChange, timestamp: number): Promise<UserStatus | undefined>;
}
