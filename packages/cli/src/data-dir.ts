import { existsSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { type ContextOptions, type Ctx, createContext, fileSystemBlobStore, findRealm, type Realm } from '@teamchat/core';

export const DEFAULT_DATA_DIR = './teamchat-data';
export const DATABASE_FILE = 'teamchat.db';

export const databasePath = (dir: string) => join(resolve(dir), DATABASE_FILE);
/** Uploaded files' bytes live under this subdirectory. */
export const uploadsPath = (dir: string) => join(resolve(dir), 'uploads');

/** Opens (creating if needed) the data directory's database and uploads; `options` configure the rest of the context. */
export function openDataDir(dir: string, options: Omit<ContextOptions, 'databaseFile' | 'storage' | 'uploads'> = {}): Ctx {
  mkdirSync(resolve(dir), { recursive: true });
  return createContext({ ...options, databaseFile: databasePath(dir), uploads: fileSystemBlobStore(uploadsPath(dir)) });
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
