/**
 * The push migration (appended to MIGRATIONS). `push_device_token` is one row per registered
 * device token, unique per (user, kind, token) as in the reference. `push_notified` holds the
 * messages whose notification may still show on a user's devices; it names no foreign key to
 * `message`, so that deleting a message can still find (and then clear) its row.
 */
export const PUSH_MIGRATION = `
  CREATE TABLE push_device_token (
    id INTEGER PRIMARY KEY,
    realm_id INTEGER NOT NULL REFERENCES realm(id),
    user_id INTEGER NOT NULL REFERENCES user(id),
    kind TEXT NOT NULL CHECK (kind IN ('fcm', 'apns')),
    token TEXT NOT NULL,
    ios_app_id TEXT,
    date_created INTEGER NOT NULL,
    UNIQUE (user_id, kind, token)
  );
  CREATE TABLE push_notified (
    realm_id INTEGER NOT NULL,
    user_id INTEGER NOT NULL,
    message_id INTEGER NOT NULL,
    PRIMARY KEY (user_id, message_id)
  ) WITHOUT ROWID;
  CREATE INDEX push_notified_message ON push_notified (message_id);
`;
