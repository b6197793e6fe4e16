/**
 * The muted-users part of the storage contract: which users each user muted, and when. A
 * user may mute any user of their realm but themselves (bots and deactivated users too).
 * See types.ts for the isolation rules every store follows.
 */

export interface MutedUser {
  /** The muted user. */
  mutedUserId: number;
  /** Unix seconds when the mute was made. */
  dateMuted: number;
}

/** Who muted whom. */
export interface MutedUserStore {
  /** The users `userId` muted, oldest mute first. */
  list(realmId: number, userId: number): Promise<MutedUser[]>;
  /**
   * The users who muted `mutedUserId`, ascending; `among` limits the answer to those IDs (the
   * recipients of one message), so that the read does not grow with the realm.
   */
  mutersOf(realmId: number, mutedUserId: number, among?: readonly number[]): Promise<number[]>;
  /**
   * Records that `userId` muted `mutedUserId`. Returns false, writing nothing, when the mute
   * exists already, when the two are the same user, or when either is not in the realm. Of two
   * concurrent calls for one pair exactly one returns true.
   */
  add(realmId: number, userId: number, mutedUserId: number, dateMuted: number): Promise<boolean>;
  /** Removes the mute; false when there was none. */
  remove(realmId: number, userId: number, mutedUserId: number): Promise<boolean>;
}
