/** What a file route answers: the bytes and how to present them. */
export interface ServedFile {
  contentType: string;
  bytes: Uint8Array;
  /**
   * For users' uploads: the name to offer and whether a browser may show it inline (otherwise
   * it downloads). Such files are private to those who may read them; absent for public files.
   */
  upload?: { fileName: string; inline: boolean };
  /** A public file whose URL changes with its content: caches may keep it forever. */
  cacheForever?: boolean;
  /**
   * The URL names this content for good (an avatar's URL changes with its version): cacheable
   * for a long time, privately, since reading it may need credentials. Absent for public files.
   */
  versioned?: boolean;
}
