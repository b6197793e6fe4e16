/**
 * The storage contract. Every method is async so that a driver over a networked database
 * (PostgreSQL) can implement it without touching the core. Every row belongs to a realm and
 * every realm-scoped lookup takes the realm ID; a row of another realm is never returned.
 *
 * Isolation and race semantics, which every driver must give (tests/contract proves them):
 * - Transactions are serializable and run in call order: each runs as if alone, from its
 *   first statement to its last, even when its callback awaits between statements, and sees
 *   the writes of every transaction called before it. Two concurrent read-modify-write
 *   transactions on one row never lose an update.
 * - A read runs on a snapshot: the state after some commit, never part of one, never another
 *   operation's uncommitted writes. It holds every transaction whose caller was answered before
 *   the read started (read your own writes).
 * - A callback's own writes are applied all or nothing.
 * - Nothing is answered or announced before its commit: a transaction's promise settles, and
 *   its after-commit callbacks run, only once the commit holding its writes is durable.
 * - Commits and read snapshots are ordered as single steps: see `read` and `Tx.afterCommit`.
 * - The `tx` handle belongs to one callback: once the callback settles, every method rejects.
 * - A callback must not start another operation on the same storage (it could wait for
 *   itself); drivers reject such a call instead of hanging. After-commit callbacks may.
 *
 * How each driver keeps them:
 * - SQLite (storage/sqlite/driver.ts): one write connection, transactions one at a time (group
 *   commit), reads on a second read-only connection in WAL mode.
 * - PostgreSQL (@teamchat/postgres): transactions one at a time per process on one connection at
 *   READ COMMITTED, each holding a transaction-scoped advisory lock that every write transaction
 *   of every process takes, so write transactions run one at a time across processes as well:
 *   as if alone, in call order within a process, without lost updates. The unique constraints
 *   (reaction, invitation key, kept IDs) hold under any ordering. Reads run in parallel, each in
 *   a REPEATABLE READ READ ONLY transaction (one snapshot); after-commit callbacks run once
 *   COMMIT has returned. "Call order" and the commit/snapshot ordering of `read` hold per
 *   process; across processes commits are ordered by the lock and events by the event bus.
  */
import type { Result } from 'neverthrow';
import type { DefaultStreamStore, StoredGroupSetting, StreamStore, SubscriptionStore } from './channel-types.js';
import type { MessageStore, ReactionStore } from './message-types.js';
import type { AlertWordStore } from './alert-word-types.js';
import type { LinkifierStore } from './linkifier-types.js';
import type { UserGroupStore } from './user-group-types.js';
import type { DraftStore } from './draft-types.js';
import type { ScheduledMessageStore } from './scheduled-message-types.js';
import type { RealmEmojiStore } from './emoji-types.js';
import type { CustomProfileFieldStore } from './profile-field-types.js';
import type { NavigationViewStore } from './navigation-view-types.js';
import type { SavedSnippetStore } from './saved-snippet-types.js';
import type { PushStore } from './push-types.js';
import type { RealmDomainStore } from './realm-domain-types.js';
import type { AttachmentStore } from './attachment-types.js';
import type { UserTopicStore } from './user-topic-types.js';
import type { ChannelFolderStore } from './channel-folder-types.js';
import type { InvitationStore } from './invitation-types.js';
import type { PlaygroundStore } from './playground-types.js';
import type { BotStorageStore } from './bot-storage-types.js';
import type { UserStatusStore } from './user-status-types.js';
import type { MutedUserStore } from './muted-user-types.js';
import type { BotStore } from './bot-types.js';
import type { PresenceStore } from './presence-types.js';
import type { SubmessageStore } from './submessage-types.js';

export * from './message-types.js';

export * from './channel-types.js';

export * from './alert-word-types.js';
export * from './linkifier-types.js';
export * from './user-group-types.js';

export * from './draft-types.js';
export * from './scheduled-message-types.js';

export * from './emoji-types.js';
export * from './profile-field-types.js';

export * from './navigation-view-types.js';
export * from './attachment-types.js';

export * from './saved-snippet-types.js';
export * from './push-types.js';

export * from './realm-domain-types.js';

export * from './user-topic-types.js';

export * from './channel-folder-types.js';
export * from './invitation-types.js';
export * from './playground-types.js';
export * from './bot-storage-types.js';
export * from './user-status-types.js';
export * from './muted-user-types.js';
export * from './bot-types.js';
export * from './presence-types.js';
export * from './submessage-types.js';

/** A user's role, as the API numbers it (lower is more privileged). */
export type Role = 100 | 200 | 300 | 400 | 600;
/** Every role, from owner to guest. */
export const ROLES: readonly Role[] = [100, 200, 300, 400, 600];
/** The roles by name: `ROLE.admin` is 200. */
export const ROLE = { owner: 100, admin: 200, moderator: 300, member: 400, guest: 600 } as const;

/** Avatar sources: G external avatar service, J generated identicon (FL 466), U uploaded. */
export type AvatarSource = 'G' | 'J' | 'U';

/** An organization as stored: its own users, channels and settings, reached at its own URL. */
export interface Realm {
  id: number;
  /** Subdomain; '' for the server's root realm. */
  subdomain: string;
  name: string;
  /** Markdown source of the description. */
  description: string;
  /** Canonical URL, for example `http://127.0.0.1:9991`. */
  url: string;
  uuid: string;
  dateCreated: number;
  deactivated: boolean;
  /** The public access option (spectators may read some endpoints without logging in). */
  webPublicAccessEnabled: boolean;
  emailAuthEnabled: boolean;
  defaultAvatarSource: 'G' | 'J';
  /**
   * Realm settings that differ from the defaults, keyed by their API names without the
   * `realm_` prefix; settings/realm-settings.ts fills in the defaults. Group settings hold a
   * StoredGroupSetting.
   */
  settings: RealmStoredSettings;
  /**
   * The settings new users start with where they differ from the server's defaults
   * (PATCH /realm/user_settings_defaults), keyed like a user's `settings`.
   */
  userSettingsDefaults: StoredSettings;
}

/** A realm's non-default settings: plain values, or group settings (channel-types.ts). */
export type RealmStoredSettings = Readonly<Record<string, SettingValue | StoredGroupSetting>>;

/** A realm to insert; `settings` may be left out (a new realm starts with the defaults). */
export type NewRealm = Omit<Realm, 'id' | 'settings' | 'userSettingsDefaults'> & {
  settings?: RealmStoredSettings;
  userSettingsDefaults?: StoredSettings;
};

/** Who may see a user's real email address. 1 everyone, 2 members, 3 admins, 4 nobody, 5 moderators. */
export type EmailVisibility = 1 | 2 | 3 | 4 | 5;

/** A personal setting's value: a boolean, an integer or a string (null where the API allows it). */
export type SettingValue = boolean | number | string | null;

/**
 * A user's personal settings (SHAPES.md 2.9) that differ from the server's defaults, keyed by
 * their API names. The core fills in the defaults (settings/user-settings.ts); a setting a user
 * never changed is absent, so it follows the default. The time zone and email visibility are
 * fields of their own, not entries here.
 */
export type StoredSettings = Readonly<Record<string, SettingValue>>;

/** A person or bot of one realm, as stored (the API's formatted user is derived from it). */
export interface User {
  id: number;
  realmId: number;
  deliveryEmail: string;
  fullName: string;
  /** scrypt hash, or null when the account has no usable password. */
  passwordHash: string | null;
  apiKey: string;
  role: Role;
  isActive: boolean;
  isBot: boolean;
  /** 1 generic, 2 incoming webhook, 3 outgoing webhook, 4 embedded; null for humans. */
  botType: number | null;
  botOwnerId: number | null;
  /**
   * A system bot of the server (the Notification Bot): it sends the server's own messages,
   * cannot log in, and is listed in register's cross_realm_bots rather than among the realm's
   * users. Absent means false (the SQLite driver always reads it).
   */
  isSystemBot?: boolean;
  timezone: string;
  avatarSource: AvatarSource;
  avatarVersion: number;
  /** ISO 8601 with microseconds and offset, as the reference prints it. */
  dateJoined: string;
  isImportedStub: boolean;
  /** Created through the API and never logged in: date_joined resets at first login (FL 475). */
  awaitingFirstLogin: boolean;
  canCreateUsers: boolean;
  canChangeUserEmails: boolean;
  emailAddressVisibility: EmailVisibility;
  /** Personal settings that differ from the defaults; `{}` for a user who changed none. */
  settings: StoredSettings;
}

/** A user to insert; `settings` may be left out (a new user starts with the defaults). */
export type NewUser = Omit<User, 'id' | 'settings'> & { settings?: StoredSettings };
/** Fields of a user to change; absent fields stay as they are. */
export type UserPatch = Partial<Omit<User, 'id' | 'realmId'>>;

/** A mail in the outbox, delivered by the context's mailer (mail/outbox.ts). */
export interface OutgoingMail {
  id: number;
  realmId: number;
  to: string;
  subject: string;
  body: string;
  createdAt: number;
  sentAt: number | null;
}

/** A mail to put in the outbox. */
export type NewMail = Omit<OutgoingMail, 'id' | 'sentAt'>;

/** Realms: the only store whose lookups are not scoped to one realm. */
export interface RealmStore {
  insert(realm: NewRealm): Promise<Realm>;
  byId(id: number): Promise<Realm | undefined>;
  bySubdomain(subdomain: string): Promise<Realm | undefined>;
  all(): Promise<Realm[]>;
  /** Sets the given fields; undefined fields are left alone. An unknown ID changes nothing. */
  update(id: number, patch: Partial<Omit<Realm, 'id'>>): Promise<void>;
}

/** Users of a realm, by ID, by email and by API key. */
export interface UserStore {
  insert(user: NewUser): Promise<User>;
  byId(realmId: number, id: number): Promise<User | undefined>;
  /**
   * Case-insensitive match on the delivery email: ASCII letters fold, other characters must
   * match exactly (the unique index per realm uses the same rule).
   */
  byDeliveryEmail(realmId: number, email: string): Promise<User | undefined>;
  /** API keys are unique across the server. */
  byApiKey(apiKey: string): Promise<User | undefined>;
  /** Users of the realm ordered by ID; `ids` limits the result to those IDs (IDs of other realms are skipped). */
  list(realmId: number, ids?: readonly number[]): Promise<User[]>;
  /**
   * A token of the state of every realm's users: it changes with each write to a user, within
   * the writing transaction (a rolled-back write leaves the old token), and never comes back.
   * Users read under one token are the same in any transaction that reads that token.
   */
  stateToken(): Promise<number>;
  /**
   * Every user's ID, role and whether they are active, ordered by ID: the narrow read for
   * audiences a hot path computes over the whole realm (a public channel message's readers).
   */
  roles(realmId: number): Promise<Pick<User, 'id' | 'role' | 'isActive'>[]>;
  /** Bots whose owner is `ownerId`, ordered by ID. */
  botsOwnedBy(realmId: number, ownerId: number): Promise<User[]>;
  /** Active, non-bot users with the owner role: the "last owner" checks count these. */
  countActiveHumanOwners(realmId: number): Promise<number>;
  /**
   * Sets the given fields of the realm's user; a user of another realm is left alone.
   * `settings` is replaced as a whole: callers merge the change into the stored object inside
   * their transaction.
   */
  update(realmId: number, id: number, patch: UserPatch): Promise<void>;
}

/** Mail waiting for the mailer. */
export interface OutboxStore {
  insert(mail: NewMail): Promise<OutgoingMail>;
  /** Mail not yet handed to the mailer, oldest first. */
  pending(limit?: number): Promise<OutgoingMail[]>;
  /** The realm's mail, sent or not, oldest first. */
  list(realmId: number): Promise<OutgoingMail[]>;
  markSent(id: number, at: number): Promise<void>;
}

/** One store per area: what a driver implements. */
export interface Stores {
  realms: RealmStore;
  users: UserStore;
  outbox: OutboxStore;
  streams: StreamStore;
  subscriptions: SubscriptionStore;
  defaultStreams: DefaultStreamStore;
  messages: MessageStore;
  reactions: ReactionStore;
  alertWords: AlertWordStore;
  linkifiers: LinkifierStore;
  userGroups: UserGroupStore;
  drafts: DraftStore;
  scheduledMessages: ScheduledMessageStore;
  realmEmoji: RealmEmojiStore;
  customProfileFields: CustomProfileFieldStore;
  navigationViews: NavigationViewStore;
  savedSnippets: SavedSnippetStore;
  push: PushStore;
  realmDomains: RealmDomainStore;
  attachments: AttachmentStore;
  userTopics: UserTopicStore;
  channelFolders: ChannelFolderStore;
  invitations: InvitationStore;
  playgrounds: PlaygroundStore;
  botStorage: BotStorageStore;
  userStatuses: UserStatusStore;
  mutedUsers: MutedUserStore;
  bots: BotStore;
  presence: PresenceStore;
  submessages: SubmessageStore;
}

/** What a transaction or read callback gets: the stores, and a hook for work after commit. */
export interface Tx extends Stores {
  /**
   * Runs `callback` once the transaction has committed, in the same step as the commit as far
   * as reads are concerned: no read takes its snapshot between a commit and its after-commit
   * callbacks, so a read (see `Storage.read`) either sees the commit and started after its
   * callbacks ran, or does not see it and started before they ran. This is what lets event
   * publication in an after-commit callback and register's snapshot agree. Callbacks run in
   * registration order, those of transactions committed together in call order, and all of
   * them before the transaction's caller is answered. Nothing runs when the transaction rolls
   * back (Err, throw, or a commit that fails). Not available inside `read`. A callback that
   * throws is reported and does not affect the commit or the other callbacks. Callbacks must be
   * quick and synchronous (start slow work in the background); they may start new operations.
   */
  afterCommit(callback: () => void): void;
}

/**
 * The storage contract a driver implements (the isolation and race semantics are in this
 * module's header); `createContext({ storage })` takes one.
 */
export interface Storage {
  /**
   * Runs `fn` as one transaction. Its writes commit when it resolves to an Ok result and roll
   * back when it resolves to an Err or throws (the exception is rethrown). Concurrent calls run
   * one at a time, in call order, each seeing the writes of the ones before it.
   *
   * A driver may commit several transactions together (the SQLite driver commits those that
   * queued while one ran in one COMMIT: group commit); each stays all or nothing, and one that
   * ends in Err or throws rolls back alone. The promise settles only after the commit holding
   * the transaction's writes is durable (at the driver's configured durability), after the
   * transaction's after-commit callbacks have run; when that commit fails, it rejects even
   * though `fn` returned Ok, and no after-commit callback runs.
   */
  transaction<T, E>(fn: (tx: Tx) => Promise<Result<T, E>>): Promise<Result<T, E>>;
  /**
   * Runs a read-only `fn` on a consistent snapshot: no write, committed or not, appears
   * between its statements. Write methods and `afterCommit` reject inside it.
   *
   * The snapshot is fixed when `fn` is called, in the same step: it holds exactly the commits
   * whose after-commit callbacks ran before `fn` was called. So work `fn` does before its first
   * await (register creating its event queue) is ordered with every commit and its events:
   * either the snapshot holds the commit and its events were published before, or it does not
   * and its events are published after. Work after an await has no such guarantee. (A driver
   * over a database server keeps this by never having a snapshot-taking statement and a
   * COMMIT in flight at once, running a commit's after-commit callbacks as its reply arrives
   * and calling `fn` as its snapshot's reply arrives; the SQLite driver gets it by doing each
   * of these synchronously.)
   *
   * A read does not wait for transactions in progress where the driver can avoid it (the SQLite
   * driver on a file; with `:memory:` reads take turns with writes). Hence a snapshot may be
   * older than commits whose after-commit callbacks ran while `fn` awaited: a cache filled from
   * a read and cleared by an after-commit callback must check that no clear happened since the
   * read started (a version counter), or it can keep stale data.
   */
  read<T>(fn: (tx: Tx) => Promise<T>): Promise<T>;
  /**
   * Waits for the operations already started (including queued ones), then closes the
   * database. Operations started after `close()` reject. Idempotent: every call returns the
   * same promise.
   */
  close(): Promise<void>;
}
