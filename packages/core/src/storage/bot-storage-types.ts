/**
 * The bot storage part of the storage contract: a user's string key-value entries
 * (/bot_storage, which bots keep their state in). See types.ts for the isolation rules.
 */

export interface BotStorageStore {
  /** The user's entries, ordered by key; only those of `keys` when given (missing keys are left out). */
  entries(realmId: number, userId: number, keys?: readonly string[]): Promise<[string, string][]>;
  /** Characters (code points) of every key and value the user holds. */
  size(realmId: number, userId: number): Promise<number>;
  /** Sets each key to its value, adding the missing ones. */
  put(realmId: number, userId: number, entries: readonly (readonly [string, string])[]): Promise<void>;
  /** Deletes the keys (every key of the user when none are given); returns how many existed. */
  remove(realmId: number, userId: number, keys?: readonly string[]): Promise<number>;
}
