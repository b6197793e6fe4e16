import { chmodSync, existsSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { type ContextOptions, type Ctx, createContext, fileSystemBlobStore, findRealm, type Realm } from '@teamchat/core';

export const DEFAULT_DATA_DIR = './teamchat-data';
export const DATABASE_FILE = 'teamchat.db';

export const databasePath = (dir: string) => join(resolve(dir), DATABASE_FILE);
/** Uploaded files' bytes live under this subdirectory. */
export const uploadsPath = (dir: string) => join(resolve(dir), 'uploads');

/** The data directory's files besides uploads: the database with its journal files, and the owner's credentials. */
const PRIVATE_FILES = [DATABASE_FILE, `${DATABASE_FILE}-wal`, `${DATABASE_FILE}-shm`, `${DATABASE_FILE}-journal`, 'zuliprc'];

/**
 * Makes the data directory private to the server's user: the database holds API keys and
 * password hashes, uploads are readable by their owners only. The process creates everything
 * from here on 0700/0600 (umask, which also covers SQLite's WAL and SHM files and the blob
 * store's temporary files), and a directory made by an older version is tightened in place.
 */
export function makeDataDirPrivate(dir: string): void {
  process.umask(0o077);
  const root = resolve(dir);
  mkdirSync(root, { recursive: true, mode: 0o700 });
  chmodSync(root, 0o700);
  if (existsSync(uploadsPath(dir))) chmodSync(uploadsPath(dir), 0o700);
  for (const name of PRIVATE_FILES) {
    const path = join(root, name);
    if (existsSync(path)) chmodSync(path, 0o600);
  }
}

/**
 * Opens (creating if needed) the data directory's database and uploads; `options` configure the
 * rest of the context. `options.storage` (a PostgreSQL database) replaces the directory's
 * SQLite file; uploads stay in the directory.
 */
export function openDataDir(dir: string, options: Omit<ContextOptions, 'databaseFile' | 'uploads'> = {}): Ctx {
  makeDataDirPrivate(dir);
  const database = options.storage ? {} : { databaseFile: databasePath(dir) };
  return createContext({ ...options, ...database, uploads: fileSystemBlobStore(uploadsPath(dir)) });
}

export const isInitialised = async (ctx: Ctx) => (await findRealm(ctx)) !== undefined;

export const hasDatabase = (dir: string) => existsSync(databasePath(dir));

/** The root realm of an initialised data directory. */
export async function rootRealm(ctx: Ctx, dir: string): Promise<Realm> {
  const realm = await findRealm(ctx);
  if (!realm) throw new CliError(`${resolve(dir)} is not initialised: run \`teamchat init\` or \`teamchat serve\` first`);
  return realm;
}

/** A failure to report to the user without a stack trace. */
export class CliError extends Error {}
