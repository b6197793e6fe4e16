/**
 * The message part of the storage contract: messages, each recipient's copy (UserMessage)
 * with its flags, and reactions. See types.ts for the isolation rules every store follows.
 */

/** Per-recipient message flags as bits; `wildcard_mentioned` is derived (API.md 2.10). */
export const FLAG_BITS = {
  read: 1,
  starred: 2,
  collapsed: 4,
  mentioned: 8,
  stream_wildcard_mentioned: 16,
  topic_wildcard_mentioned: 32,
  has_alert_word: 64,
  historical: 128,
  hide_link_previews: 256,
} as const;

/** A per-user message flag, kept as one bit of FLAG_BITS. */
export type StoredFlag = keyof typeof FLAG_BITS;

/** One entry of a message's edit history, newest first (SHAPES.md 5.1). */
export interface EditHistoryEntry {
  user_id: number | null;
  timestamp: number;
  prev_content?: string;
  prev_rendered_content?: string;
  prev_topic?: string;
  topic?: string;
  prev_stream?: number;
  stream?: number;
}

/** A message as stored: where it was sent, by whom, when, and its content with its rendering. */
export interface Message {
  id: number;
  realmId: number;
  senderId: number;
  /** `stream` (a channel message) or `private` (a direct message). */
  type: 'stream' | 'private';
  streamId: number | null;
  /** '' for direct messages, and for channel messages in the empty topic. */
  topic: string;
  /** A direct conversation: its participants' IDs, sorted and comma-joined. Null for channels. */
  dmKey: string | null;
  content: string;
  renderedContent: string;
  /** Unix seconds. */
  dateSent: number;
  sendingClient: string;
  lastEditTime: number | null;
  lastMovedTime: number | null;
  editHistory: EditHistoryEntry[];
  hasLink: boolean;
  hasImage: boolean;
  hasAttachment: boolean;
  isMeMessage: boolean;
}

/** A message to insert. */
export type NewMessage = Omit<Message, 'id'>;
/** Fields of a message to change (an edit or a move); absent fields stay as they are. */
export type MessagePatch = Partial<Omit<Message, 'id' | 'realmId' | 'senderId' | 'type' | 'dateSent'>>;

/** A recipient's copy of a message. */
export interface Recipient {
  userId: number;
  /** Bits of FLAG_BITS. */
  flags: number;
}

/** One user's emoji reaction on a message, as stored. */
export interface Reaction {
  messageId: number;
  userId: number;
  emojiName: string;
  emojiCode: string;
  reactionType: 'unicode_emoji' | 'realm_emoji' | 'service_extra_emoji';
}

/**
 * A resolved narrow term (IDs, not names), as the query layer runs it. `negated` inverts it.
 */
export type MessageCondition = { negated: boolean } & (
  | { kind: 'stream'; streamId: number }
  | { kind: 'streams'; streamIds: readonly number[] }
  | { kind: 'topic'; topic: string }
  | { kind: 'sender'; userId: number }
  | { kind: 'dm'; dmKey: string }
  | { kind: 'dm-including'; userId: number }
  | { kind: 'is-dm' }
  /** `set`: some bit of `mask` is set; otherwise none is ("unread" is read not set). */
  | { kind: 'flag'; mask: number; set: boolean }
  | { kind: 'resolved' }
  | { kind: 'has'; what: 'link' | 'image' | 'attachment' | 'reaction' }
  /** Full-text words; see SearchTooBroadError for the bound a driver puts on one lookup. */
  | { kind: 'search'; text: string }
  | { kind: 'id'; id: number }
  | { kind: 'none' }
  /** Channel messages in topics the viewer follows. */
  | { kind: 'followed' }
  /** Channel messages in topics the viewer muted, or in channels they muted unless the topic is unmuted or followed. */
  | { kind: 'muted' }
  /** Messages with a visible (not silent) direct mention of the user, who has the `mentioned` flag on their copy. */
  | { kind: 'mentions'; userId: number }
);

/** How rendered content marks a visible direct mention of a user (a silent one has class "user-mention silent"). */
export const directMentionMarkup = (userId: number) => `<span class="user-mention" data-user-id="${userId}">`;

/** Which messages a query may see before its conditions apply. */
export interface MessageScope {
  /** The viewer: flags come from their copies. */
  userId: number;
  /**
   * Channels whose whole history the viewer may read without having received the messages
   * (public channels, or subscribed channels with shared history). Messages outside these
   * are visible only through the viewer's own copies.
   */
  sharedHistoryStreamIds: readonly number[];
}

/** Which messages around an anchor GET /messages asks for. */
export interface MessageWindow {
  /** The anchor message ID (any integer; it need not exist). */
  anchor: number;
  includeAnchor: boolean;
  numBefore: number;
  numAfter: number;
  /**
   * Also read the viewer's flags on the window's messages (MessageWindowResult.flags), in the
   * same walk: a page then needs no flagsOf lookup of its own. Off by default, as it may cost a
   * row lookup per message where the IDs alone come from an index.
   */
  withFlags?: boolean;
  /**
   * Also read the format stamps of the window's messages (MessageWindowResult.stamps), in the
   * same walk: a page that keeps formatted rows (messages/page-rows.ts) then needs no
   * formatStamps lookup of its own.
   */
  withStamps?: boolean;
}

/** The message IDs of a window, and whether it reached the anchor and either end. */
export interface MessageWindowResult {
  /** Ascending. */
  ids: number[];
  foundAnchor: boolean;
  foundOldest: boolean;
  foundNewest: boolean;
  /**
   * With `withFlags` only: the viewer's flags on those of `ids` they hold a copy of, as flagsOf
   * gives them (a message without a copy is left out; the caller says what it shows as).
   */
  flags?: Map<number, number>;
  /** With `withStamps` only: the format stamps of `ids` as formatStamps gives them (a message without one is left out: its stamp is 0). */
  stamps?: Map<number, number>;
}

/** Messages, their per-user rows (flags) and the narrow and search queries of GET /messages. */
export interface MessageStore {
  insert(message: NewMessage, recipients: readonly Recipient[]): Promise<Message>;
  byId(realmId: number, id: number): Promise<Message | undefined>;
  /** Ascending by ID; unknown IDs are left out. */
  byIds(realmId: number, ids: readonly number[]): Promise<Message[]>;
  update(realmId: number, id: number, patch: MessagePatch): Promise<void>;
  /** Deletes messages with their copies and reactions. */
  delete(realmId: number, ids: readonly number[]): Promise<void>;
  /** The recipients' copies of a message, by user ID. */
  recipients(messageId: number): Promise<Recipient[]>;
  /** One user's flags on some messages (messages without a copy are left out). */
  flagsOf(userId: number, messageIds: readonly number[]): Promise<Map<number, number>>;
  /**
   * The format stamps of those of the messages whose formatted record changed since they were
   * sent (their row, reactions or submessages were written); the others' stamp is 0. A stamp
   * changes, in the writing transaction, with every such write, and two states of a message
   * never share one: what is derived from a message's rows may be kept under its stamp.
   */
  formatStamps(messageIds: readonly number[]): Promise<Map<number, number>>;
  /** Gives users copies of a message (for example `historical` copies); existing copies stay. */
  addRecipients(messageId: number, recipients: readonly Recipient[]): Promise<void>;
  /** Removes users' copies of a message (users who can no longer read it after a move). */
  removeRecipients(messageId: number, userIds: readonly number[]): Promise<void>;
  /** IDs of the messages a user sent, ascending. */
  idsBySender(realmId: number, senderId: number): Promise<number[]>;
  /** Sets (`on`) or clears bits on a user's copies; returns the IDs whose flags changed. */
  setFlags(userId: number, messageIds: readonly number[], mask: number, on: boolean): Promise<number[]>;
  /** Replaces the bits in `mask` of each recipient's copy (non-settable flags after an edit). */
  replaceFlags(messageId: number, mask: number, flagsByUser: ReadonlyMap<number, number>): Promise<void>;
  /** IDs matching the scope and every condition, around the anchor (with the viewer's flags when `withFlags`). */
  window(scope: MessageScope, conditions: readonly MessageCondition[], window: MessageWindow): Promise<MessageWindowResult>;
  /** Whether a message matches the scope and conditions. */
  matches(scope: MessageScope, conditions: readonly MessageCondition[], messageId: number): Promise<boolean>;
  /** The newest message ID the user has a copy of, or -1. */
  maxMessageId(userId: number): Promise<number>;
  /** The user's unread copies (ID ascending), with what unread_msgs needs. */
  unread(userId: number): Promise<Array<{ id: number; flags: number; type: 'stream' | 'private'; streamId: number | null; topic: string; dmKey: string | null; senderId: number }>>;
  /** Message IDs of a topic, newest first. */
  topicMessageIds(realmId: number, streamId: number, topic: string): Promise<number[]>;
  /**
   * Whether the topic (compared ignoring case) has a message other than `except`, below `before`
   * when given, and of which `heldBy` has a copy when given: one index probe where the whole
   * list of IDs is not needed.
   */
  topicHasMessage(
    realmId: number,
    streamId: number,
    topic: string,
    options?: { except?: readonly number[]; before?: number; heldBy?: number },
  ): Promise<boolean>;
  /** The channel's topics with their newest message ID, newest first. */
  topics(realmId: number, streamId: number): Promise<Array<{ name: string; maxId: number }>>;
  /** A stable number for a direct conversation (allocated by its first message's insert); 0 if none. */
  dmConversationId(realmId: number, dmKey: string): Promise<number>;
  /** `dmConversationId` of several conversations in one lookup; keys without a conversation are left out. */
  dmConversationIds(realmId: number, dmKeys: readonly string[]): Promise<Map<string, number>>;
  /**
   * IDs of the users who share a direct conversation (one-on-one or group) with the user, the
   * user not included, ascending. A conversation counts once its first message was stored, even
   * after its messages are deleted: the reference's direct-message-group subscriptions stay too.
   */
  dmPeerIds(realmId: number, userId: number): Promise<number[]>;
  /**
   * The user's direct conversations (one-on-one, group and with themself) with the newest message
   * of each that the user still has a copy of, newest first, at most `limit`. A conversation
   * whose messages were all deleted, or of which the user holds no copy, is left out. Answered
   * from the user's own conversations (an index range), one index probe each.
   */
  recentDmConversations(realmId: number, userId: number, limit: number): Promise<Array<{ dmKey: string; maxMessageId: number }>>;
  /** The oldest message of a channel, or null. */
  firstMessageId(realmId: number, streamId: number): Promise<number | null>;
  /** IDs of the channel's messages sent before `before` (UNIX seconds), oldest first, at most `limit` (retention). */
  idsSentBefore(realmId: number, streamId: number, before: number, limit: number): Promise<number[]>;
}

/** Emoji reactions on messages. */
export interface ReactionStore {
  add(realmId: number, reaction: Reaction): Promise<void>;
  remove(realmId: number, reaction: Omit<Reaction, 'emojiName'>): Promise<boolean>;
  /** Reactions of the messages, in insertion order. */
  forMessages(messageIds: readonly number[]): Promise<Reaction[]>;
}

/**
 * Thrown by a message store read (window, matches, …) whose full-text search would yield more
 * candidate messages than the driver's budget: a search must not hold the only thread for long.
 * Operations answer it as BAD_REQUEST (operation.ts); nothing was written, as it is a read.
 */
export class SearchTooBroadError extends Error {
  constructor(readonly budget: number) {
    super(`storage: a full-text search passed its budget of ${budget} candidate rows`);
  }
}
