/**
 * The alert-word part of the storage contract: each user's words (or phrases), compared
 * without regard to case. See types.ts for the isolation rules every store follows.
 */
export interface AlertWordStore {
  /** The user's words as first added, in the order they were added. */
  list(realmId: number, userId: number): Promise<string[]>;
  /** Words of several users (users without words are left out); for computing flags at send. */
  forUsers(realmId: number, userIds: readonly number[]): Promise<Map<number, string[]>>;
  /** Adds the words the user does not have yet (ignoring case); existing ones keep their spelling. */
  add(realmId: number, userId: number, words: readonly string[]): Promise<void>;
  /** Removes the user's words equal to any of `words` ignoring case; unknown words are ignored. */
  remove(realmId: number, userId: number, words: readonly string[]): Promise<void>;
}
