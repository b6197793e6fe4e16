/**
 * How a reminder looks on the wire (the openapi Reminder: GET /reminders, the `reminders`
 * register section and `add` events), and what its text needs to know about its message.
 */
import type { Message, ScheduledMessage, Tx } from '../storage/types.js';
import type { ReminderSubject } from './reminder-content.js';

/** A reminder about a message, as GET /reminders and its events carry it. */
export interface ApiReminder {
  reminder_id: number;
  /** Reminders are direct messages to oneself. */
  type: 'private';
  to: number[];
  content: string;
  rendered_content: string;
  /** UNIX seconds. */
  scheduled_delivery_timestamp: number;
  failed: boolean;
  reminder_target_message_id: number;
}

/** The Reminder record: always a direct message to its owner. */
export function formatReminder(m: ScheduledMessage): ApiReminder {
  return {
    reminder_id: m.id,
    type: 'private' as const,
    to: [m.senderId],
    content: m.content,
    rendered_content: m.renderedContent,
    scheduled_delivery_timestamp: m.deliveryTimestamp,
    failed: m.failed,
    reminder_target_message_id: m.reminderTargetMessageId!,
  };
}

/** The sender, channel or participants that a reminder about `message` names. */
export async function reminderSubject(tx: Tx, message: Message): Promise<ReminderSubject> {
  const [sender] = await tx.users.list(message.realmId, [message.senderId]);
  const fallback = { id: message.senderId, fullName: '' };
  if (message.type === 'stream') {
    const stream = await tx.streams.byId(message.realmId, message.streamId!);
    return { message, sender: sender ?? fallback, stream: stream ?? { id: message.streamId!, name: '' } };
  }
  const ids = (message.dmKey ?? '').split(',').filter(Boolean).map(Number);
  const participants = await tx.users.list(message.realmId, ids);
  return { message, sender: sender ?? fallback, participants: participants.sort((a, b) => a.id - b.id) };
}
