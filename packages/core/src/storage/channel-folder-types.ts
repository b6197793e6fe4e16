/**
 * The channel-folder part of the storage contract: a realm's folders that organize its channels
 * in the sidebar (FL 389, ordered since FL 414). See types.ts for the isolation rules every store
 * follows.
 */

/** A stored channel folder. Names are unique per realm, ignoring case. */
export interface ChannelFolder {
  id: number;
  realmId: number;
  name: string;
  /** Markdown source. */
  description: string;
  renderedDescription: string;
  creatorId: number | null;
  /** UNIX seconds. */
  dateCreated: number;
  isArchived: boolean;
  /** The position among the realm's folders (smaller first); PATCH /channel_folders rewrites it. */
  order: number;
}

/** A folder to insert: the store assigns the ID and puts it after the realm's other folders. */
export type NewChannelFolder = Omit<ChannelFolder, 'id' | 'order'>;

/** Fields PATCH /channel_folders/{id} may change; undefined fields are left alone. */
export type ChannelFolderPatch = Partial<Pick<ChannelFolder, 'name' | 'description' | 'renderedDescription' | 'isArchived'>>;

/** A realm's channel folders. */
export interface ChannelFolderStore {
  /** The realm's folders, archived ones included, by `order` then ID. */
  list(realmId: number): Promise<ChannelFolder[]>;
  byId(realmId: number, id: number): Promise<ChannelFolder | undefined>;
  /**
   * Inserts the folder last. A name the realm already has in any case (JavaScript's
   * `toLowerCase()`) writes nothing and gives undefined; of concurrent inserts of one name
   * exactly one caller receives the folder.
   */
  insert(folder: NewChannelFolder): Promise<ChannelFolder | undefined>;
  /** Changes a folder; false (nothing written) when it does not exist or the new name is another folder's. */
  update(realmId: number, id: number, patch: ChannelFolderPatch): Promise<boolean>;
  /** Gives the realm's folders the positions of `ids` (the caller passes every folder once). */
  reorder(realmId: number, ids: readonly number[]): Promise<void>;
}
