/**
 * Where uploaded files' bytes live, apart from the database: a key-value store of blobs. Keys
 * are attachment `path_id`s (`1/4e/m2A3MSqFnWRLUf9SaPzQ0Up_/notes.txt`): relative, slash-separated
 * and free of `.`/`..` segments. Embedders pass their own (object storage, …) to createContext.
 */
export interface BlobStore {
  /** Stores `bytes` under `key`, replacing what was there. Resolves once the bytes are durable. */
  put(key: string, bytes: Uint8Array): Promise<void>;
  /**
   * Stores the bytes `chunks` yields under `key` as they arrive, without holding them all in
   * memory, and resolves with their count once they are durable. If `chunks` throws (a client
   * that went away, a size limit hit) nothing is left under `key` (a previous blob included)
   * and the error is rethrown as is, so the caller can tell its own errors apart.
   */
  putStream(key: string, chunks: AsyncIterable<Uint8Array>): Promise<number>;
  /** The bytes under `key`, or undefined. */
  get(key: string): Promise<Uint8Array | undefined>;
  /** Removes `key`; a missing key is not an error. */
  delete(key: string): Promise<void>;
}

/** Whether `key` is a key every store accepts (no empty, `.` or `..` segment, no backslash or NUL). */
export function isValidBlobKey(key: string): boolean {
  if (key === '' || key.includes('\\') || key.includes('\0')) return false;
  return key.split('/').every((segment) => segment !== '' && segment !== '.' && segment !== '..');
}

/** A blob store in memory: the default for contexts without a data directory, and for tests. */
export function memoryBlobStore(): BlobStore & { keys(): string[] } {
  const blobs = new Map<string, Uint8Array>();
  const check = (key: string) => {
    if (!isValidBlobKey(key)) throw new Error(`blob store: invalid key '${key}'`);
  };
  return {
    async put(key, bytes) {
      check(key);
      blobs.set(key, new Uint8Array(bytes));
    },
    async putStream(key, chunks) {
      check(key);
      blobs.delete(key);
      const parts: Uint8Array[] = [];
      let size = 0;
      for await (const chunk of chunks) {
        parts.push(new Uint8Array(chunk));
        size += chunk.byteLength;
      }
      blobs.set(key, Buffer.concat(parts));
      return size;
    },
    async get(key) {
      check(key);
      const bytes = blobs.get(key);
      return bytes && new Uint8Array(bytes);
    },
    async delete(key) {
      check(key);
      blobs.delete(key);
    },
    keys: () => [...blobs.keys()].sort(),
  };
}
