/**
 * The user-group part of the storage contract: a realm's own (non-system) user groups, their
 * direct members, direct subgroups and permission settings. System groups are not stored
 * (see access/system-groups.ts); a stored group may name one as a subgroup by its fixed ID.
 * See types.ts for the isolation rules every store follows.
 */
import type { StoredGroupSetting } from './channel-types.js';

/** A group's `can_*_group` settings by API name; a setting left out takes the core's default. */
export type UserGroupSettings = Readonly<Record<string, StoredGroupSetting>>;

/** A user group with its direct members and direct subgroups (each ascending). */
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
  /** Direct members, deactivated users included (the API leaves those out). */
  members: number[];
  /** Direct subgroups: user-defined group IDs or system group IDs (1-8). */
  subgroups: number[];
  settings: UserGroupSettings;
}

/** A user group to insert (members and subgroups are added apart). */
export type NewUserGroup = Omit<StoredUserGroup, 'id' | 'realmId' | 'deactivated' | 'subgroups'>;

/** What PATCH /user_groups/{id} and deactivation change. */
export type UserGroupPatch = Partial<Pick<StoredUserGroup, 'name' | 'description' | 'deactivated' | 'settings'>>;

/** User groups, their members and their subgroups. */
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
  /** Changes the given fields (`settings` replaces the whole map). A new name taken in any case throws, as for insert. */
  update(realmId: number, id: number, patch: UserGroupPatch): Promise<void>;
  /** Adds direct members (ones already in the group are ignored). */
  addMembers(realmId: number, id: number, userIds: readonly number[]): Promise<void>;
  /** Removes direct members (ones not in the group are ignored). */
  removeMembers(realmId: number, id: number, userIds: readonly number[]): Promise<void>;
  /** Adds direct subgroups (ones already there are ignored). The caller prevents cycles. */
  addSubgroups(realmId: number, id: number, subgroupIds: readonly number[]): Promise<void>;
  /** Removes direct subgroups (ones not there are ignored). */
  removeSubgroups(realmId: number, id: number, subgroupIds: readonly number[]): Promise<void>;
}
