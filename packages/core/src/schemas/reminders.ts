/** Input of the reminder endpoints (the reference's views/reminders.py; FL 381, 399, 415). */
import { optional, type } from './known-structs.js';
import { JsonInt, PathInt, Str } from './wire.js';

export const CreateReminderParams = type({
  message_id: JsonInt,
  scheduled_delivery_timestamp: JsonInt,
  /** Limited by the action (max_reminder_note_length), after trimming. */
  note: optional(Str),
});

export const DeleteReminderParams = type({ reminder_id: PathInt });
