/**
 * The user-group part of the storage contract: a realm's own (non-system) user groups and their
 * direct members. System groups are not stored (see access/system-groups.ts).
 * See types.ts for the isolation rules every store follows.
 */

/** A user group with its direct members (ascending user IDs). */
export interface StoredUserGroup {
  /** Above every system group's fixed ID, so the two never collide. */
  id: number;
  realmId: number;
  /** Unique within the realm, compared case-insensitively. */
  name: string;
  description: string;
  creatorId: number | null;
  /** UNIX seconds. */
  dateCreated: number;
  deactivated: boolean;
  members: number[];
}

export type NewUserGroup = Omit<StoredUserGroup, 'id' | 'realmId' | 'deactivated'>;

export interface UserGroupStore {
  /** The realm's groups, deactivated ones included, by ID. */
  list(realmId: number): Promise<StoredUserGroup[]>;
  /** The realm's group, or undefined (another realm's ID gives undefined). */
  get(realmId: number, id: number): Promise<StoredUserGroup | undefined>;
  /**
   * Adds a group with its members. A name the realm already has (in any case) throws: the caller
   * checks first, and the unique index settles a race.
   */
  insert(realmId: number, group: NewUserGroup): Promise<StoredUserGroup>;
  /** Adds direct members (ones already in the group are ignored). */
  addMembers(realmId: number, id: number, userIds: readonly number[]): Promise<void>;
  /** Removes direct members (ones not in the group are ignored). */
  removeMembers(realmId: number, id: number, userIds: readonly number[]): Promise<void>;
}
