/**
 * The scheduled-messages migration (appended to MIGRATIONS). `recipient_ids` is a JSON list
 * because a direct message's addressees are only read and written whole with it. The
 * scheduler scans pending messages by delivery time, hence the index.
 */
export const SCHEDULED_MESSAGES_MIGRATION = `
  CREATE TABLE scheduled_message (
    id INTEGER PRIMARY KEY,
    realm_id INTEGER NOT NULL REFERENCES realm(id),
    sender_id INTEGER NOT NULL REFERENCES user(id),
    type TEXT NOT NULL CHECK (type IN ('stream', 'private')),
    stream_id INTEGER REFERENCES stream(id),
    recipient_ids TEXT NOT NULL CHECK (json_valid(recipient_ids) AND json_type(recipient_ids) = 'array'),
    topic TEXT NOT NULL,
    content TEXT NOT NULL,
    rendered_content TEXT NOT NULL,
    delivery_timestamp INTEGER NOT NULL,
    failed INTEGER NOT NULL DEFAULT 0
  );
  CREATE INDEX scheduled_message_sender ON scheduled_message (sender_id, delivery_timestamp, id);
  CREATE INDEX scheduled_message_due ON scheduled_message (failed, delivery_timestamp, id);
`;

/**
 * The reminders migration (appended to MIGRATIONS): a reminder is a scheduled-message row of
 * delivery type `remind`, so the one scheduler delivers both. Rows already stored stay
 * `send_later`. The target message has no foreign key: it may be deleted before the reminder
 * is due, and the reminder is still sent (without the message).
 */
export const REMINDERS_MIGRATION = `
  ALTER TABLE scheduled_message ADD COLUMN delivery_type TEXT NOT NULL DEFAULT 'send_later' CHECK (delivery_type IN ('send_later', 'remind'));
  ALTER TABLE scheduled_message ADD COLUMN reminder_target_message_id INTEGER;
  ALTER TABLE scheduled_message ADD COLUMN reminder_note TEXT;
`;
