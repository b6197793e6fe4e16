/**
 * The draft part of the storage contract: each user's unsent message drafts. See types.ts for
 * the isolation rules every store follows (a draft is only ever reached through its owner).
 */

/** `""`: unaddressed; `stream`: a channel draft; `private`: a direct-message draft. */
export type DraftType = '' | 'stream' | 'private';

/** What a draft holds, as validated by the drafts action. */
export interface DraftFields {
  type: DraftType;
  /** `[channel ID]` for a channel draft, the other participants for a direct one, `[]` otherwise. */
  to: number[];
  /** The topic of a channel draft; `""` for the others. */
  topic: string;
  content: string;
  /** Unix time of the last edit in seconds (fractional: the reference keeps microseconds). */
  lastEditTime: number;
}

/** A stored draft: its fields, its owner and its ID. */
export interface Draft extends DraftFields {
  id: number;
  realmId: number;
  userId: number;
}

/** Users' drafts. */
export interface DraftStore {
  /**
   * The user's drafts by last edit time (ties by ID): oldest first, or newest first with
   * `newestFirst`; at most `limit` of them when given.
   */
  list(realmId: number, userId: number, options?: { newestFirst?: boolean; limit?: number }): Promise<Draft[]>;
  /** The user's draft `id`; undefined when it does not exist or belongs to someone else. */
  get(realmId: number, userId: number, id: number): Promise<Draft | undefined>;
  /** Creates the drafts in order; their IDs increase in that order. */
  insert(realmId: number, userId: number, drafts: readonly DraftFields[]): Promise<Draft[]>;
  /** Replaces the fields of the user's draft `id`; undefined (nothing written) when it is not theirs. */
  update(realmId: number, userId: number, id: number, fields: DraftFields): Promise<Draft | undefined>;
  /** Deletes the user's draft `id`; false (nothing deleted) when it is not theirs. */
  delete(realmId: number, userId: number, id: number): Promise<boolean>;
}
