/**
 * The installation an export reads or an import writes: the data directory's SQLite file, or the
 * PostgreSQL database at `url` (`--database` / TEAMCHAT_DATABASE_URL; uploads stay in the data
 * directory either way, as for `serve`).
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { CliError, DATABASE_FILE, databasePath, makeDataDirPrivate, uploadsPath } from '../data-dir.js';
import { holdDataDirLock } from '../data-dir-lock.js';
import { type DatabaseHandle, openPostgres, openSqlite } from './database-handle.js';

export interface Installation {
  db: DatabaseHandle;
  uploadsDir: string;
  close(): Promise<void>;
}

/** For reading (export): the database must exist; a running server may keep writing. */
export async function openForExport(dataDir: string, url: string | undefined): Promise<Installation> {
  if (url === undefined && !existsSync(databasePath(dataDir))) throw new CliError(`--data: ${resolve(dataDir)} has no database (${DATABASE_FILE})`);
  const db = url === undefined ? await openSqlite(databasePath(dataDir), { readonly: true }) : await openPostgres(url, { readonly: true });
  return { db, uploadsDir: uploadsPath(dataDir), close: () => db.close() };
}

/**
 * For writing (import): created and migrated when new. A SQLite data directory is locked for the
 * import's length, so a server cannot start on it meanwhile, and one already running is refused
 * (its caches would not know the new realm).
 */
export async function openForImport(dataDir: string, url: string | undefined): Promise<Installation> {
  makeDataDirPrivate(dataDir);
  const release = url === undefined ? holdDataDirLock(dataDir, 'import') : () => undefined;
  try {
    const db = url === undefined ? await openSqlite(databasePath(dataDir), { readonly: false }) : await openPostgres(url, { readonly: false });
    return {
      db,
      uploadsDir: uploadsPath(dataDir),
      close: async () => {
        try {
          await db.close();
        } finally {
          release();
        }
      },
    };
  } catch (error) {
    release();
    throw error;
  }
}
