/**
 * The saved-snippet part of the storage contract: each user's reusable message texts
 * (the reference's SavedSnippet). See types.ts for the isolation rules every store follows.
 */

export interface SavedSnippet {
  id: number;
  title: string;
  content: string;
  /** UNIX seconds. */
  dateCreated: number;
}

/** A saved snippet to insert. */
export type NewSavedSnippet = Omit<SavedSnippet, 'id'>;

/** Fields an edit may change; undefined fields are left alone. */
export interface SavedSnippetPatch {
  title?: string;
  content?: string;
}

/** Users' saved snippets. */
export interface SavedSnippetStore {
  /** The user's snippets, oldest first. */
  list(realmId: number, userId: number): Promise<SavedSnippet[]>;
  /** Stores a snippet of the realm's user; undefined (nothing written) for a user of another realm. */
  insert(realmId: number, userId: number, snippet: NewSavedSnippet): Promise<SavedSnippet | undefined>;
  /** Changes one of the user's snippets; the changed snippet, or undefined when the user has none of that ID. */
  update(realmId: number, userId: number, id: number, patch: SavedSnippetPatch): Promise<SavedSnippet | undefined>;
  /** Deletes one of the user's snippets; false when the user has none of that ID. */
  delete(realmId: number, userId: number, id: number): Promise<boolean>;
}
