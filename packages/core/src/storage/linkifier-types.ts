/**
 * The linkifier part of the storage contract: a realm's linkifiers in processing order.
 * See types.ts for the isolation rules every store follows.
 */

/** A realm linkifier (API.md 2.7). */
export interface StoredLinkifier {
  id: number;
  realmId: number;
  /** RE2 syntax; unique within the realm. */
  pattern: string;
  urlTemplate: string;
  exampleInput: string | null;
  reverseTemplate: string | null;
  alternativeUrlTemplates: string[];
}

/** A linkifier's fields, as added or updated. */
export type LinkifierChange = Omit<StoredLinkifier, 'id' | 'realmId'>;

/** A realm's linkifiers, in their order. */
export interface LinkifierStore {
  /** The realm's linkifiers in processing order. */
  list(realmId: number): Promise<StoredLinkifier[]>;
  /**
   * Adds a linkifier after the realm's others. A pattern the realm already has throws (the
   * caller checks first; the unique index settles a race).
   */
  insert(realmId: number, linkifier: LinkifierChange): Promise<StoredLinkifier>;
  /** Replaces the fields of the realm's linkifier; returns whether it exists. */
  update(realmId: number, id: number, linkifier: LinkifierChange): Promise<boolean>;
  /** Deletes the realm's linkifier; returns whether it existed. */
  delete(realmId: number, id: number): Promise<boolean>;
  /** Puts the realm's linkifiers in the order of `ids` (every one of them, each once). */
  reorder(realmId: number, ids: readonly number[]): Promise<void>;
}
