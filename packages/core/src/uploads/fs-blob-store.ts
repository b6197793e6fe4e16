/** The blob store of a server with a data directory: one file per blob under `root`. */
import { randomBytes } from 'node:crypto';
import { open, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { type BlobStore, isValidBlobKey } from './blob-store.js';

/**
 * Keys map to paths below `root` (checked, so no key escapes it). A put writes a temporary
 * file and renames it into place, so a reader never sees half a file and a crash leaves no
 * truncated blob under the key. Directories are created 0700 and files 0600: uploads are
 * private to their owners and the server alone serves them.
 */
export function fileSystemBlobStore(root: string): BlobStore {
  const base = resolve(root);
  const pathOf = (key: string) => {
    if (!isValidBlobKey(key)) throw new Error(`blob store: invalid key '${key}'`);
    return join(base, ...key.split('/'));
  };
  /** A fresh temporary path next to `path`, in a directory that exists. */
  const temporaryFor = async (path: string) => {
    await mkdir(dirname(path), { recursive: true, mode: 0o700 });
    return `${path}.${randomBytes(6).toString('hex')}.tmp`;
  };
  return {
    async put(key, bytes) {
      const path = pathOf(key);
      const temporary = await temporaryFor(path);
      try {
        await writeFile(temporary, bytes, { flush: true, mode: 0o600 });
        await rename(temporary, path);
      } catch (error) {
        await rm(temporary, { force: true });
        throw error;
      }
    },
    async putStream(key, chunks) {
      const path = pathOf(key);
      const temporary = await temporaryFor(path);
      let size = 0;
      try {
        const file = await open(temporary, 'wx', 0o600);
        try {
          // One chunk at a time: the next is pulled only once this one is written, so memory
          // holds a chunk, not the file, however slow the disk or fast the client.
          for await (const chunk of chunks) {
            await file.write(chunk);
            size += chunk.byteLength;
          }
          await file.sync();
        } finally {
          await file.close();
        }
        await rename(temporary, path);
        return size;
      } catch (error) {
        await rm(temporary, { force: true });
        // A failed stream must not leave an older blob looking like this upload.
        await rm(path, { force: true });
        throw error;
      }
    },
    async get(key) {
      try {
        return new Uint8Array(await readFile(pathOf(key)));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
        throw error;
      }
    },
    async delete(key) {
      await rm(pathOf(key), { force: true });
    },
  };
}
