/**
 * The scheduled-message part of the storage contract: each user's messages waiting for their
 * delivery time. See types.ts for the isolation rules (reached through the owner, except the
 * scheduler's realm-wide `due` scan).
 */

/**
 * What a row is for: a message the user scheduled (`send_later`), or a reminder about a message
 * that the Notification Bot sends the user (`remind`, the reference's ScheduledMessage.REMIND).
 * Both wait for the one durable scheduler; the user-facing lists keep them apart.
 */
export type ScheduledDeliveryType = 'send_later' | 'remind';

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
  /** `send_later` when absent (rows written before reminders existed, and every scheduled message). */
  deliveryType?: ScheduledDeliveryType;
  /** A reminder's message; null otherwise. No foreign key: the message may be deleted before delivery. */
  reminderTargetMessageId?: number | null;
  /** A reminder's note (FL 415), normalized; null when none was given. */
  reminderNote?: string | null;
}

/** A stored scheduled message or reminder: its fields, its owner and its ID. */
export interface ScheduledMessage extends ScheduledMessageFields {
  id: number;
  deliveryType: ScheduledDeliveryType;
  reminderTargetMessageId: number | null;
  reminderNote: string | null;
  realmId: number;
  senderId: number;
}

/**
 * `kind` (default `send_later`) keeps reminders and scheduled messages apart: a row of the other
 * kind is treated as missing, so neither endpoint family can see or change the other's rows.
 */
export interface ScheduledMessageStore {
  /** The user's rows of `kind` by delivery time (ties by ID), failed ones included. */
  list(realmId: number, userId: number, kind?: ScheduledDeliveryType): Promise<ScheduledMessage[]>;
  /** The user's row `id` of `kind`; undefined when missing, someone else's or of the other kind. */
  get(realmId: number, userId: number, id: number, kind?: ScheduledDeliveryType): Promise<ScheduledMessage | undefined>;
  insert(realmId: number, userId: number, fields: ScheduledMessageFields): Promise<ScheduledMessage | undefined>;
  /**
   * Replaces the fields (the kind and a reminder's target and note stay); undefined (nothing
   * written) when it is not the user's row of `fields.deliveryType`.
   */
  update(realmId: number, userId: number, id: number, fields: ScheduledMessageFields): Promise<ScheduledMessage | undefined>;
  /** Deletes it; false when it is not the user's row of `kind`. */
  delete(realmId: number, userId: number, id: number, kind?: ScheduledDeliveryType): Promise<boolean>;
  /** Every realm's rows of both kinds not failed and due at `nowSeconds` or before, by time then ID (the scheduler). */
  due(nowSeconds: number): Promise<ScheduledMessage[]>;
  /** The earliest delivery time of a row of either kind not failed, or undefined (arms the scheduler's timer). */
  nextDue(): Promise<number | undefined>;
}
