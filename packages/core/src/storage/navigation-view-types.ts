/**
 * The navigation-view part of the storage contract: each user's configured left-sidebar views
 * (API.md 2.8), keyed by fragment. See types.ts for the isolation rules every store follows.
 */

/** A stored view. `name` is null for built-in views. */
export interface NavigationView {
  fragment: string;
  isPinned: boolean;
  name: string | null;
}

/** Fields PATCH may change; undefined fields are left alone (a name is never cleared). */
export interface NavigationViewPatch {
  isPinned?: boolean;
  name?: string;
}

/** Users' navigation views (left sidebar entries). */
export interface NavigationViewStore {
  /** The user's views in the order they were added. */
  list(realmId: number, userId: number): Promise<NavigationView[]>;
  byFragment(realmId: number, userId: number, fragment: string): Promise<NavigationView | undefined>;
  /**
   * Adds a view. A user's fragments are unique, and so are their names (nulls excepted): when
   * either is taken nothing is written and the result is false. Of concurrent inserts of one
   * fragment or name exactly one caller receives true.
   */
  insert(realmId: number, userId: number, view: NavigationView): Promise<boolean>;
  /** Changes a view; false (nothing written) when the new name is another view's. An unknown fragment writes nothing. */
  update(realmId: number, userId: number, fragment: string, patch: NavigationViewPatch): Promise<boolean>;
  /** Deletes a view; false when the user has no view of that fragment. */
  remove(realmId: number, userId: number, fragment: string): Promise<boolean>;
}
