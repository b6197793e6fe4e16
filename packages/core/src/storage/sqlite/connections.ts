/**
 * Opening the SQLite driver's connections: the write connection (pragmas, migrations) and, for
 * a file, a read-only connection beside it.
 */
import Database from 'better-sqlite3';
import { MIGRATIONS } from './migrations.js';

/** Whether `filename` names a private in-memory database, which a second connection cannot share. */
export function isInMemory(filename: string): boolean {
  return filename === ':memory:' || filename === '';
}

/**
 * Opens the write connection: WAL, the requested `synchronous`, foreign keys, a busy timeout,
 * temporary storage in memory, and the schema brought up to date. `synchronous` is set on every open because better-sqlite3
 * would otherwise reopen an existing WAL database at NORMAL. With `checkpointsInCommit` false,
 * SQLite's automatic checkpoint is off: a checkpointer (checkpointer.ts) must run beside it.
 */
export function openWriter(filename: string, synchronous: 'full' | 'normal', checkpointsInCommit = true): Database.Database {
  const db = new Database(filename);
  try {
    db.pragma('journal_mode = WAL');
    if (!checkpointsInCommit) db.pragma('wal_autocheckpoint = 0');
    db.pragma(synchronous === 'normal' ? 'synchronous = NORMAL' : 'synchronous = FULL');
    db.pragma('foreign_keys = ON');
    db.pragma('busy_timeout = 5000');
    // Savepoints of batched transactions keep their sub-journals in memory, not in temp files.
    db.pragma('temp_store = MEMORY');
    migrate(db);
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}

/**
 * Opens a read-only connection to a file the writer has opened (so it is in WAL mode and
 * migrated). In WAL mode its read transactions see the last commit at their start and never
 * wait for, nor block, the writer.
 */
export function openReader(filename: string): Database.Database {
  const db = new Database(filename, { readonly: true, fileMustExist: true });
  try {
    // Only WAL recovery after a crash can make a reader wait; bound it like the writer's.
    db.pragma('busy_timeout = 5000');
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}

/**
 * Brings the schema to `MIGRATIONS.length`. The version is read again inside an IMMEDIATE
 * transaction, so two processes opening one new file do not both apply the same migrations.
 */
function migrate(db: Database.Database): void {
  const latest = MIGRATIONS.length;
  const version = () => db.pragma('user_version', { simple: true }) as number;
  if (version() === latest) return;
  db.transaction(() => {
    const current = version();
    if (current > latest) {
      throw new Error(`storage: the database schema is at version ${current}, newer than this server's ${latest}`);
    }
    for (let next = current; next < latest; next++) db.exec(MIGRATIONS[next]!);
    db.pragma(`user_version = ${latest}`);
  }).immediate();
}
