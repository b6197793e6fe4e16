/**
 * The code-playground part of the storage contract: the external sites a realm offers for
 * opening a code block of a language. See types.ts for the isolation rules every store follows.
 */

/** A realm's code playground (SHAPES.md 2.4 `realm_playgrounds`). */
export interface StoredPlayground {
  id: number;
  realmId: number;
  name: string;
  pygmentsLanguage: string;
  /** RFC 6570 template whose only variable is `code`. */
  urlTemplate: string;
}

/** A code playground to insert. */
export type NewPlayground = Omit<StoredPlayground, 'id' | 'realmId'>;

/** A realm's code playgrounds. */
export interface PlaygroundStore {
  /** The realm's playgrounds, ordered by ID. */
  list(realmId: number): Promise<StoredPlayground[]>;
  /**
   * Adds a playground. A (language, name) pair the realm already has throws (the caller checks
   * first; the unique index settles a race). IDs are never reused.
   */
  insert(realmId: number, playground: NewPlayground): Promise<StoredPlayground>;
  /** Deletes the realm's playground; returns whether it existed. */
  delete(realmId: number, id: number): Promise<boolean>;
}
