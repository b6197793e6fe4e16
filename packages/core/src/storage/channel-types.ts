/**
 * The channel part of the storage contract: channels (the API's "streams"), subscriptions and
 * the realm's default channels. See types.ts for the isolation rules every store follows.
 */

/**
 * A group-setting value as stored (SHAPES.md 1.3): a system group by name (`role:members`,
 * `role:nobody`, ...), a user-defined group of the realm by ID, or an anonymous group of users
 * and groups (system groups by name, user-defined ones by ID). The core maps system group
 * names to the API's group IDs; storage keeps names so that the IDs can follow the user-groups
 * area without a migration. Values stored before user-defined groups existed stay valid.
 */
export type StoredGroupSetting = string | number | StoredAnonymousGroup;

/** An anonymous group-setting value: direct members and direct subgroups. */
export interface StoredAnonymousGroup {
  readonly direct_members: readonly number[];
  readonly direct_subgroups: readonly (string | number)[];
}

/** A channel's `can_*_group` settings by API name; a setting left out takes the core's default. */
export type StreamGroupSettings = Readonly<Record<string, StoredGroupSetting>>;

/** How a channel treats the empty topic (FL 392, 404). */
export type TopicsPolicy = 'inherit' | 'allow_empty_topic' | 'disable_empty_topic' | 'empty_topic_only';

/** A channel. Names are unique per realm, ignoring case. */
export interface Stream {
  id: number;
  realmId: number;
  name: string;
  /** Markdown source. */
  description: string;
  renderedDescription: string;
  /** UNIX seconds. */
  dateCreated: number;
  creatorId: number | null;
  inviteOnly: boolean;
  isWebPublic: boolean;
  historyPublicToSubscribers: boolean;
  /** Archived (the reference's `deactivated`); its subscriptions are kept. */
  isArchived: boolean;
  /** null: the realm's policy; -1: forever. */
  messageRetentionDays: number | null;
  /** The oldest message's ID; null while the channel has no messages. */
  firstMessageId: number | null;
  topicsPolicy: TopicsPolicy;
  isRecentlyActive: boolean;
  folderId: number | null;
  defaultPushNotifications: boolean;
  groupSettings: StreamGroupSettings;
}

/** A channel to insert. */
export type NewStream = Omit<Stream, 'id'>;
/** Fields of a channel to change; absent fields stay as they are. */
export type StreamPatch = Partial<Omit<Stream, 'id' | 'realmId'>>;

/**
 * A user's subscription to a channel. Unsubscribing keeps the row with `active` false, so the
 * personal settings (colour, notifications) survive a later resubscription.
 */
export interface Subscription {
  realmId: number;
  userId: number;
  streamId: number;
  active: boolean;
  /** `#rrggbb`. */
  color: string;
  isMuted: boolean;
  pinToTop: boolean;
  /** The five notification settings: null inherits the user's default. */
  desktopNotifications: boolean | null;
  audibleNotifications: boolean | null;
  pushNotifications: boolean | null;
  emailNotifications: boolean | null;
  wildcardMentionsNotify: boolean | null;
}

/** Fields of a subscription to change (its properties, whether it is active). */
export type SubscriptionPatch = Partial<Omit<Subscription, 'realmId' | 'userId' | 'streamId'>>;

/** A realm's channels. */
export interface StreamStore {
  /** Refuses (throws) a name another channel of the realm has in any case. */
  insert(stream: NewStream): Promise<Stream>;
  byId(realmId: number, id: number): Promise<Stream | undefined>;
  /**
   * Case-insensitive match on the name: names are equal when their JavaScript `toLowerCase()`
   * are (the unique index uses the same rule). Archived channels are found too.
   */
  byName(realmId: number, name: string): Promise<Stream | undefined>;
  /** The realm's channels, archived ones included, ordered by ID; `ids` limits the result. */
  list(realmId: number, ids?: readonly number[]): Promise<Stream[]>;
  /**
   * A token of the state of every realm's channels and subscriptions: it changes with each
   * write to either, within the writing transaction (a rolled-back write leaves the old token),
   * and never comes back. What is read from channels and subscriptions under one token is the
   * same in any transaction that reads that token, so it may be cached under it.
   */
  stateToken(): Promise<number>;
  /** Sets the given fields; a channel of another realm is left alone. A taken name throws. */
  update(realmId: number, id: number, patch: StreamPatch): Promise<void>;
}

/** Who is subscribed to which channel, with each subscription's settings. */
export interface SubscriptionStore {
  /** The user's subscription row for the channel, active or not. */
  get(realmId: number, userId: number, streamId: number): Promise<Subscription | undefined>;
  /** IDs of the channel's active subscribers that are active users, ascending. */
  activeSubscriberIds(realmId: number, streamId: number): Promise<number[]>;
  /**
   * `activeSubscriberIds` of several channels in one read: every requested ID is a key (with
   * `[]` when nobody is subscribed). Without `streamIds`, the realm's channels that have any.
   */
  subscribersByStream(realmId: number, streamIds?: readonly number[]): Promise<Map<number, number[]>>;
  /** The user's rows, active and inactive, ordered by channel ID. */
  forUser(realmId: number, userId: number): Promise<Subscription[]>;
  /** Inserts the row, or replaces every field of the existing row of that user and channel. */
  upsert(subscription: Subscription): Promise<void>;
  /** Sets the given fields of an existing row; a missing row (or another realm's) is left alone. */
  update(realmId: number, userId: number, streamId: number, patch: SubscriptionPatch): Promise<void>;
}

/** The channels new users join (the API's default streams). */
export interface DefaultStreamStore {
  /** Channel IDs, ascending. */
  list(realmId: number): Promise<number[]>;
  /** Idempotent. */
  add(realmId: number, streamId: number): Promise<void>;
  /** Idempotent. */
  remove(realmId: number, streamId: number): Promise<void>;
}
