/**
 * The custom emoji part of the storage contract: a realm's uploaded emoji and their images.
 * See types.ts for the isolation rules every store follows.
 */

/** A custom (realm) emoji. Deactivated emoji stay: old messages and reactions still show them. */
export interface RealmEmoji {
  id: number;
  realmId: number;
  name: string;
  /** The uploader; null when unknown. */
  authorId: number | null;
  deactivated: boolean;
  /** The image's type, as detected from its bytes (`image/png`, `image/gif`, ...). */
  contentType: string;
}

/** A custom emoji to insert. */
export type NewRealmEmoji = Omit<RealmEmoji, 'id'>;

/** A realm's custom emoji. */
export interface RealmEmojiStore {
  /**
   * Stores an emoji and its image. At most one emoji per realm and name is active: inserting
   * an active emoji under a name that an active one holds throws (the caller checks first).
   */
  insert(emoji: NewRealmEmoji, image: Uint8Array): Promise<RealmEmoji>;
  /** The realm's emoji, deactivated ones included, by ID ascending. */
  list(realmId: number): Promise<RealmEmoji[]>;
  byId(realmId: number, id: number): Promise<RealmEmoji | undefined>;
  /** Marks the realm's emoji deactivated; returns whether an active one changed. */
  deactivate(realmId: number, id: number): Promise<boolean>;
  /** The image of the realm's emoji (deactivated or not), or undefined. */
  image(realmId: number, id: number): Promise<{ contentType: string; bytes: Uint8Array } | undefined>;
}
