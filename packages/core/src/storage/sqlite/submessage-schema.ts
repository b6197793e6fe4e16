/**
 * The submessages migration (appended to MIGRATIONS).
 *
 * - AUTOINCREMENT: clients order and key a widget's updates by submessage ID, so an ID is never
 *   handed out again, even after the newest row went with its deleted message.
 * - The (message_id, id) index serves both reads: a page's submessages in ID order and a
 *   message's first one.
 * - Rows go with their message (ON DELETE CASCADE), as the reference's foreign key does.
 */
export const SUBMESSAGES_MIGRATION = `
  CREATE TABLE submessage (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    realm_id INTEGER NOT NULL REFERENCES realm(id),
    message_id INTEGER NOT NULL REFERENCES message(id) ON DELETE CASCADE,
    sender_id INTEGER NOT NULL REFERENCES user(id),
    msg_type TEXT NOT NULL,
    content TEXT NOT NULL
  );
  CREATE INDEX submessage_message ON submessage (message_id, id);
`;
