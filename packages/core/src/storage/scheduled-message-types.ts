/**
 * The scheduled-message part of the storage contract: each user's messages waiting for their
 * delivery time. See types.ts for the isolation rules (reached through the owner, except the
 * scheduler's realm-wide `due` scan).
 */

/** What a scheduled message holds, as validated by the scheduled-messages action. */
export interface ScheduledMessageFields {
  type: 'stream' | 'private';
  /** The channel of a channel message; null for a direct one. */
  streamId: number | null;
  /** The requested recipients of a direct message (sorted, unique); `[]` for a channel one. */
  recipientIds: number[];
  /** The topic of a channel message; `""` for a direct one. */
  topic: string;
  content: string;
  renderedContent: string;
  /** Unix seconds. */
  deliveryTimestamp: number;
  /** True once a delivery attempt failed. */
  failed: boolean;
}

export interface ScheduledMessage extends ScheduledMessageFields {
  id: number;
  realmId: number;
  senderId: number;
}

export interface ScheduledMessageStore {
  /** The user's scheduled messages by delivery time (ties by ID), failed ones included. */
  list(realmId: number, userId: number): Promise<ScheduledMessage[]>;
  /** The user's scheduled message `id`; undefined when missing or someone else's. */
  get(realmId: number, userId: number, id: number): Promise<ScheduledMessage | undefined>;
  insert(realmId: number, userId: number, fields: ScheduledMessageFields): Promise<ScheduledMessage | undefined>;
  /** Replaces the fields; undefined (nothing written) when it is not the user's. */
  update(realmId: number, userId: number, id: number, fields: ScheduledMessageFields): Promise<ScheduledMessage | undefined>;
  /** Deletes it; false when it is not the user's. */
  delete(realmId: number, userId: number, id: number): Promise<boolean>;
  /** Every realm's messages not failed and due at `nowSeconds` or before, by time then ID (the scheduler). */
  due(nowSeconds: number): Promise<ScheduledMessage[]>;
  /** The earliest delivery time of a message not failed, or undefined (arms the scheduler's timer). */
  nextDue(): Promise<number | undefined>;
}
