import Database from 'better-sqlite3';
import type { Result } from 'neverthrow';
import { Mutex } from '../mutex.js';
import type { Storage, Tx } from '../types.js';
import { MIGRATIONS } from './migrations.js';
import { outboxStore, realmStore, userStore } from './stores.js';

export interface SqliteOptions {
  /** File path, or ':memory:' (the default) for a private in-memory database. */
  filename?: string;
}

/**
 * The embedded default driver: one better-sqlite3 connection in WAL mode.
 *
 * Durability: `synchronous = FULL` is set on every open (better-sqlite3 would otherwise reopen
 * an existing WAL database at NORMAL). A transaction that committed survives a process crash
 * and a power loss; the price is one fsync of the WAL per commit.
 *
 * Every call runs under one FIFO mutex, so an async callback never shares the connection with
 * another operation's statements.
 */
export function createSqliteStorage(options: SqliteOptions = {}): Storage {
  const db = new Database(options.filename ?? ':memory:');
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  migrate(db);

  const tx: Tx = { realms: realmStore(db), users: userStore(db), outbox: outboxStore(db) };
  const mutex = new Mutex();
  let closed = false;

  const assertOpen = () => {
    if (closed) throw new Error('storage is closed');
  };

  return {
    transaction<T, E>(fn: (tx: Tx) => Promise<Result<T, E>>) {
      return mutex.run(async () => {
        assertOpen();
        db.exec('BEGIN IMMEDIATE');
        try {
          const result = await fn(tx);
          db.exec(result.isOk() ? 'COMMIT' : 'ROLLBACK');
          return result;
        } catch (error) {
          if (db.inTransaction) db.exec('ROLLBACK');
          throw error;
        }
      });
    },
    read<T>(fn: (tx: Tx) => Promise<T>) {
      return mutex.run(async () => {
        assertOpen();
        db.exec('BEGIN');
        try {
          return await fn(tx);
        } finally {
          if (db.inTransaction) db.exec('COMMIT');
        }
      });
    },
    async close() {
      await mutex.idle();
      if (!closed) {
        closed = true;
        db.close();
      }
    },
  };
}

function migrate(db: Database.Database): void {
  const current = db.pragma('user_version', { simple: true }) as number;
  for (let version = current; version < MIGRATIONS.length; version++) {
    db.transaction(() => {
      db.exec(MIGRATIONS[version]!);
      db.pragma(`user_version = ${version + 1}`);
    })();
  }
}
