import { AsyncLocalStorage } from 'node:async_hooks';
import Database from 'better-sqlite3';
import type { Result } from 'neverthrow';
import { Mutex } from '../mutex.js';
import { scopeTx, type TxScope } from '../scoped-tx.js';
import type { Storage, Stores, Tx } from '../types.js';
import { MIGRATIONS } from './migrations.js';
import { statementCache } from './statements.js';
import { defaultStreamStore, streamStore, subscriptionStore } from './channel-stores.js';
import { messageStore, reactionStore } from './message-stores.js';
import { alertWordStore } from './alert-word-stores.js';
import { linkifierStore } from './linkifier-stores.js';
import { playgroundStore } from './playground-stores.js';
import { botStorageStore } from './bot-storage-stores.js';
import { userGroupStore } from './user-group-stores.js';
import { draftStore } from './draft-stores.js';
import { scheduledMessageStore } from './scheduled-message-stores.js';
import { realmEmojiStore } from './emoji-stores.js';
import { customProfileFieldStore } from './profile-field-stores.js';
import { navigationViewStore } from './navigation-view-stores.js';
import { savedSnippetStore } from './saved-snippet-stores.js';
import { pushStore } from './push-stores.js';
import { realmDomainStore } from './realm-domain-stores.js';
import { attachmentStore } from './attachment-stores.js';
import { userTopicStore } from './user-topic-stores.js';
import { channelFolderStore } from './channel-folder-stores.js';
import { invitationStore } from './invitation-stores.js';
import { userStatusStore } from './user-status-stores.js';
import { mutedUserStore } from './muted-user-stores.js';
import { botStore } from './bot-stores.js';
import { presenceStore } from './presence-stores.js';
import { submessageStore } from './submessage-stores.js';
import { outboxStore, realmStore, userStore } from './stores.js';
import { DEFAULT_SEARCH_ROW_BUDGET, registerSearchBudget } from './search-budget.js';

export interface SqliteOptions {
  /** File path, or ':memory:' (the default) for a private in-memory database. */
  filename?: string;
  /**
   * How hard a commit waits for the disk (the `synchronous` pragma, in WAL mode).
   * - `'full'` (the default): the WAL is fsynced at every commit, so a transaction that
   *   committed survives a process crash and a power loss.
   * - `'normal'`: the WAL is fsynced only at checkpoints. A committed transaction survives a
   *   crash of the process (its pages are in the operating system's cache), but a power loss
   *   or kernel crash may roll back the last transactions committed before it; the file is
   *   never corrupted. Saves one fsync per commit (BENCHMARKS.md has the trade-off).
   */
  synchronous?: 'full' | 'normal';
  /**
   * The most candidate messages one full-text search may yield before it is stopped with
   * SearchTooBroadError (default DEFAULT_SEARCH_ROW_BUDGET): the bound on how long a search
   * holds the connection, which is the only thread. The statements of one compiled query share
   * it (a GET /messages window runs up to three), so a word in more than about a third of it
   * cannot be searched alone; raise it for very large histories at the cost of longer stalls.
   */
  searchRowBudget?: number;
}

/** The SQLite driver's storage: the contract plus a diagnostic for tests and operators. */
export interface SqliteStorage extends Storage {
  /**
   * Diagnostic: the current value of a PRAGMA on this driver's connection, for example
   * `journal_mode`, `synchronous` (2 is FULL), `foreign_keys` or `user_version`. Read only: the
   * argument is a bare name, never an assignment. Runs in turn like any other operation.
   */
  pragma(name: string): Promise<unknown>;
}

/**
 * The embedded default driver: one better-sqlite3 connection in WAL mode.
 *
 * Durability: `synchronous = FULL` is set on every open unless `options.synchronous` says
 * 'normal' (better-sqlite3 would otherwise reopen an existing WAL database at NORMAL). A
 * transaction that committed survives a process crash and a power loss; the price is one
 * fsync of the WAL per commit.
 *
 * Isolation: every operation (transaction, read, pragma, close) runs under one FIFO mutex, so
 * an async callback never shares the connection with another operation's statements. Each
 * callback gets its own `tx` handle, revoked when the callback settles, so a leaked handle
 * cannot slip statements into a later operation. An operation started from inside another
 * operation's callback (from the callback's own async context) is rejected at once: it would
 * wait for the mutex its caller holds. The mutex is held while the callback awaits, so a
 * callback must not await slow work (password hashing, network): do it before the operation.
 *
 * One process per file: another process writing the same file makes BEGIN IMMEDIATE wait up
 * to `busy_timeout` (5 s) synchronously, blocking the event loop.
 *
 * Opening throws when the file's schema is newer than this code's migrations.
 */
export function createSqliteStorage(options: SqliteOptions = {}): SqliteStorage {
  const db = openDatabase(options.filename ?? ':memory:', options.synchronous ?? 'full');
  registerSearchBudget(db, options.searchRowBudget ?? DEFAULT_SEARCH_ROW_BUDGET);
  const statements = statementCache(db);
  const stores: Stores = {
    realms: realmStore(statements),
    users: userStore(statements),
    outbox: outboxStore(statements),
    messages: messageStore(statements),
    reactions: reactionStore(statements),
    alertWords: alertWordStore(statements),
    linkifiers: linkifierStore(statements),
    userGroups: userGroupStore(statements),
    drafts: draftStore(statements),
    scheduledMessages: scheduledMessageStore(statements),
    realmEmoji: realmEmojiStore(statements),
    customProfileFields: customProfileFieldStore(statements),
    navigationViews: navigationViewStore(statements),
    savedSnippets: savedSnippetStore(statements),
    push: pushStore(statements),
    realmDomains: realmDomainStore(statements),
    attachments: attachmentStore(statements),
    channelFolders: channelFolderStore(statements),
    streams: streamStore(statements),
    subscriptions: subscriptionStore(statements),
    defaultStreams: defaultStreamStore(statements),
    userTopics: userTopicStore(statements),
    invitations: invitationStore(statements),
    playgrounds: playgroundStore(statements),
    botStorage: botStorageStore(statements),
    userStatuses: userStatusStore(statements),
    mutedUsers: mutedUserStore(statements),
    bots: botStore(statements),
    presence: presenceStore(statements),
    submessages: submessageStore(statements),
  };
  const mutex = new Mutex();
  // The handle of the operation whose callback this async context runs in, if any.
  const running = new AsyncLocalStorage<TxScope>();
  let closing: Promise<void> | undefined;

  const nestedError = (what: string) =>
    new Error(`storage: ${what}() called inside another storage callback; it would wait for that callback forever`);

  /** Queues `body` as the next operation on the connection. */
  function exclusive<T>(what: string, body: () => Promise<T>): Promise<T> {
    if (running.getStore()?.live) return Promise.reject(nestedError(what));
    if (closing) return Promise.reject(new Error(`storage: ${what}() called after close()`));
    return mutex.run(body);
  }

  /** Runs a callback with a fresh handle and ends the handle as soon as the callback settles. */
  async function callback<T>(scope: TxScope, fn: (tx: Tx) => Promise<T>): Promise<T> {
    try {
      return await running.run(scope, () => fn(scope.tx));
    } finally {
      scope.revoke();
    }
  }

  return {
    transaction<T, E>(fn: (tx: Tx) => Promise<Result<T, E>>) {
      return exclusive('transaction', async () => {
        db.exec('BEGIN IMMEDIATE');
        const scope = scopeTx(stores, 'write');
        try {
          const result = await callback(scope, fn);
          db.exec(result.isOk() ? 'COMMIT' : 'ROLLBACK');
          if (result.isOk()) runAfterCommit(scope.committed);
          return result;
        } catch (error) {
          if (db.inTransaction) db.exec('ROLLBACK');
          throw error;
        }
      });
    },
    read<T>(fn: (tx: Tx) => Promise<T>) {
      return exclusive('read', async () => {
        db.exec('BEGIN');
        try {
          return await callback(scopeTx(stores, 'read'), fn);
        } finally {
          if (db.inTransaction) db.exec('ROLLBACK');
        }
      });
    },
    pragma(name: string) {
      if (!/^[a-z_]+$/.test(name)) return Promise.reject(new Error(`storage: '${name}' is not a pragma name`));
      return exclusive('pragma', async () => db.pragma(name, { simple: true }));
    },
    close() {
      if (running.getStore()?.live) return Promise.reject(nestedError('close'));
      // Through the mutex: operations queued before close() finish first; later ones are refused.
      closing ??= mutex.run(async () => {
        db.close();
      });
      return closing;
    },
  };
}

/** Runs after-commit callbacks; one that throws is reported and does not stop the others. */
function runAfterCommit(callbacks: readonly (() => void)[]): void {
  for (const callback of callbacks) {
    try {
      callback();
    } catch (error) {
      console.error('storage: an after-commit callback failed', error);
    }
  }
}

function openDatabase(filename: string, synchronous: 'full' | 'normal'): Database.Database {
  const db = new Database(filename);
  try {
    db.pragma('journal_mode = WAL');
    db.pragma(synchronous === 'normal' ? 'synchronous = NORMAL' : 'synchronous = FULL');
    db.pragma('foreign_keys = ON');
    db.pragma('busy_timeout = 5000');
    migrate(db);
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
