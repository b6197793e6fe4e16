/** One outgoing webhook delivery: what the send path hands over after commit. */

/** What made the message reach the bot (the reference's NotificationTriggers, FL 201 names). */
export type Trigger = 'mention' | 'direct_message';

/** A delivery waiting or running: plain data, so that a retry is the same job queued again. */
export interface DeliveryJob {
  realmId: number;
  botId: number;
  trigger: Trigger;
  /** The message as the payload shows it (GET /messages format, raw Markdown, plus rendered_content). */
  message: Record<string, unknown> & { id: number; type: string; content: string };
  /** The message's permanent link, for the owner's failure notices. */
  messageUrl: string;
  /** Earlier attempts that timed out or could not connect. */
  failedTries: number;
}
