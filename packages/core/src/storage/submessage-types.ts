/**
 * Submessages (the reference's SubMessage): small JSON updates attached to a message by its
 * readers, which the clients' widgets (polls, to-do lists) replay in ID order to rebuild
 * their state. A submessage belongs to its message: deleting the message deletes them.
 */

/** One stored submessage. `content` is the JSON text as the client sent it. */
export interface Submessage {
  id: number;
  messageId: number;
  senderId: number;
  msgType: string;
  content: string;
}

/** A submessage to insert. */
export type NewSubmessage = Omit<Submessage, 'id'>;

/** Submessages (widget events) attached to messages. */
export interface SubmessageStore {
  /**
   * Stores a submessage of the realm's message. A message of another realm (or none) stores
   * nothing and gives undefined. IDs only grow: a deleted submessage's ID is never reused.
   */
  insert(realmId: number, submessage: NewSubmessage): Promise<Submessage | undefined>;
  /**
   * The submessages of the realm's listed messages, ascending by ID (the order widgets replay
   * them in). One query whatever the number of messages: pages of messages read them at once.
   */
  forMessages(realmId: number, messageIds: readonly number[]): Promise<Submessage[]>;
  /** The message's oldest submessage, of `msgType` when given (the one that made it a widget). */
  first(realmId: number, messageId: number, msgType?: string): Promise<Submessage | undefined>;
  /** How many submessages the realm's message has (0 for a message of another realm). */
  count(realmId: number, messageId: number): Promise<number>;
}
