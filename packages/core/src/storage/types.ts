/**
 * The storage contract. Every method is async so that a driver over a networked database
 * (PostgreSQL) can implement it without touching the core. Every row belongs to a realm and
 * every realm-scoped lookup takes the realm ID; a row of another realm is never returned.
 *
 * Isolation and race semantics, which every driver must give (tests/contract proves them):
 * - Operations (`transaction`, `read`) are serializable: each runs as if alone, from its first
 *   statement to its last, even when its callback awaits between statements. Two concurrent
 *   read-modify-write transactions on one row never lose an update.
 * - A callback never sees another operation's uncommitted writes, and its own writes are
 *   applied all or nothing.
 * - The `tx` handle belongs to one callback: once the callback settles, every method rejects.
 * - A callback must not start another operation on the same storage (it would wait for itself);
 *   drivers reject such a call instead of hanging.
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

export type Role = 100 | 200 | 300 | 400 | 600;
export const ROLES: readonly Role[] = [100, 200, 300, 400, 600];
export const ROLE = { owner: 100, admin: 200, moderator: 300, member: 400, guest: 600 } as const;

/** Avatar sources: G external avatar service, J generated identicon (FL 466), U uploaded. */
export type AvatarSource = 'G' | 'J' | 'U';

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
export type UserPatch = Partial<Omit<User, 'id' | 'realmId'>>;

export interface OutgoingMail {
  id: number;
  realmId: number;
  to: string;
  subject: string;
  body: string;
  createdAt: number;
  sentAt: number | null;
}

export type NewMail = Omit<OutgoingMail, 'id' | 'sentAt'>;

export interface RealmStore {
  insert(realm: NewRealm): Promise<Realm>;
  byId(id: number): Promise<Realm | undefined>;
  bySubdomain(subdomain: string): Promise<Realm | undefined>;
  all(): Promise<Realm[]>;
  /** Sets the given fields; undefined fields are left alone. An unknown ID changes nothing. */
  update(id: number, patch: Partial<Omit<Realm, 'id'>>): Promise<void>;
}

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

export interface OutboxStore {
  insert(mail: NewMail): Promise<OutgoingMail>;
  /** Mail not yet handed to the mailer, oldest first. */
  pending(limit?: number): Promise<OutgoingMail[]>;
  /** The realm's mail, sent or not, oldest first. */
  list(realmId: number): Promise<OutgoingMail[]>;
  markSent(id: number, at: number): Promise<void>;
}

/** What a transaction or read callback gets: one store per area. */
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
   * Runs `callback` once the transaction has committed, before any other operation starts
   * (the store is still held), so that what it publishes is ordered with the commit. Nothing
   * runs when the transaction rolls back. Not available inside `read`. A callback that throws
   * is reported and does not affect the commit or the other callbacks.
   */
  afterCommit(callback: () => void): void;
}

export interface Storage {
  /**
   * Runs `fn` with exclusive use of the store. Its writes commit when it resolves to an Ok
   * result and roll back when it resolves to an Err or throws (the exception is rethrown).
   * Concurrent calls end as if they ran one after another (the SQLite driver runs them so, in
   * call order).
   */
  transaction<T, E>(fn: (tx: Tx) => Promise<Result<T, E>>): Promise<Result<T, E>>;
  /**
   * Runs a read-only `fn` with the same exclusivity and a consistent snapshot: no other
   * operation's writes appear between its statements. Write methods reject inside it.
   */
  read<T>(fn: (tx: Tx) => Promise<T>): Promise<T>;
  /**
   * Waits for the operations already started (including queued ones), then closes the
   * database. Operations started after `close()` reject. Idempotent: every call returns the
   * same promise.
   */
  close(): Promise<void>;
}
