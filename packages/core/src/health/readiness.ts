/**
 * Whether a context can serve requests: its database answers and its schema is the one this
 * build's migrations make. Behind `GET /ready`, for load balancers and orchestrators.
 */
import { MIGRATIONS } from '../storage/sqlite/migrations.js';
import type { Storage } from '../storage/types.js';

/** Whether a context can serve: ready, or why not (answered by `GET /ready`). */
export type Readiness = { ready: true } | { ready: false; reason: string };

/** A storage that can say which schema version its database is at (the SQLite driver, through `PRAGMA user_version`). */
interface VersionedStorage extends Storage {
  pragma(name: string): Promise<unknown>;
}

const isVersioned = (storage: Storage): storage is VersionedStorage => typeof (storage as Partial<VersionedStorage>).pragma === 'function';

/**
 * Checks `storage` with one read (a snapshot needs the database file) and, where the driver
 * tells it, the schema version against the migrations: a database another process has not yet
 * migrated, or one a newer build migrated past this one, is not ready. Never throws.
 */
export async function checkReadiness(storage: Storage): Promise<Readiness> {
  try {
    await storage.read(async () => undefined);
  } catch {
    return { ready: false, reason: 'database unreachable' };
  }
  if (!isVersioned(storage)) return { ready: true };
  try {
    const version = await storage.pragma('user_version');
    if (version !== MIGRATIONS.length) return { ready: false, reason: `database schema at version ${String(version)}, this server needs ${MIGRATIONS.length}` };
  } catch {
    return { ready: false, reason: 'database unreachable' };
  }
  return { ready: true };
}
