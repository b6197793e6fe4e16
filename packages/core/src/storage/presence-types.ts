/**
 * The presence part of the storage contract: each user's last presence report and the realm's
 * presence sequence (the reference's UserPresence and PresenceSequence). The core keeps recent
 * presence in memory and writes it here in batches (presence/memory.ts), so these rows lag the
 * live state by at most one flush; the nodes of a cluster share presence through these rows
 * (presence/cluster.ts). See types.ts for the isolation rules every store follows.
 */

/** One user's presence, times in Unix seconds. */
export interface UserPresence {
  userId: number;
  /** When a client last said the user was active; null if none ever did. */
  lastActiveTime: number | null;
  /** When a client of the user last reported at all (active or idle). */
  lastConnectedTime: number;
  /** The realm sequence value of the change that wrote this state (`last_update_id`). */
  lastUpdateId: number;
}

/** Users' last presence (active and idle times). */
export interface PresenceStore {
  /** Every stored presence of the realm, ordered by user ID. */
  list(realmId: number): Promise<UserPresence[]>;
  /** The stored presence of the given users of the realm, ordered by user ID. */
  listUsers(realmId: number, userIds: readonly number[]): Promise<UserPresence[]>;
  /** The realm's stored presence changed after sequence value `afterUpdateId`, ordered by user ID. */
  listChanged(realmId: number, afterUpdateId: number): Promise<UserPresence[]>;
  /** The highest `last_update_id` the realm handed out; 0 when it has none. */
  lastUpdateId(realmId: number): Promise<number>;
  /**
   * Writes the given users' presence, replacing what is stored for them (rows for users of
   * another realm, or unknown users, are skipped), and raises the realm's sequence to
   * `lastUpdateId` (it never goes down).
   */
  save(realmId: number, rows: readonly UserPresence[], lastUpdateId: number): Promise<void>;
}
