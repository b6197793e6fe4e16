/**
 * The attachments migration (appended to MIGRATIONS). `path_id` is unique server-wide: it is
 * the blob key. Links cascade from both sides, so deleting a message or an attachment never
 * leaves a dangling link; "unused" uploads are those without a link row.
 */
export const ATTACHMENTS_MIGRATION = `
  CREATE TABLE attachment (
    id INTEGER PRIMARY KEY,
    realm_id INTEGER NOT NULL REFERENCES realm(id),
    owner_id INTEGER NOT NULL REFERENCES user(id),
    path_id TEXT NOT NULL UNIQUE,
    file_name TEXT NOT NULL,
    size INTEGER NOT NULL,
    content_type TEXT NOT NULL,
    create_time INTEGER NOT NULL
  );
  CREATE INDEX attachment_owner ON attachment (realm_id, owner_id, id);
  CREATE INDEX attachment_create_time ON attachment (create_time);
  CREATE TABLE message_attachment (
    message_id INTEGER NOT NULL REFERENCES message(id) ON DELETE CASCADE,
    attachment_id INTEGER NOT NULL REFERENCES attachment(id) ON DELETE CASCADE,
    PRIMARY KEY (attachment_id, message_id)
  ) WITHOUT ROWID;
  CREATE INDEX message_attachment_by_message ON message_attachment (message_id, attachment_id);
`;
