/**
 * The push migration (appended to MIGRATIONS). `push_device_token` is one row per registered
 * device token, unique per (user, kind, token) as in the reference. `push_notified` holds the
 * messages whose notification may still show on a user's devices; it names no foreign key to
 * `message`, so that deleting a message can still find (and then clear) its row.
 * `client_device` is a logged-in device (FL 468) and its E2EE push registration; AUTOINCREMENT
 * keeps a removed device's ID from going to another device.
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
  CREATE TABLE client_device (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    realm_id INTEGER NOT NULL REFERENCES realm(id),
    user_id INTEGER NOT NULL REFERENCES user(id),
    push_key TEXT,
    push_key_id INTEGER CHECK (push_key_id BETWEEN 0 AND 4294967295),
    push_token_kind TEXT CHECK (push_token_kind IN ('fcm', 'apns')),
    push_token_id TEXT,
    pending_push_token_id TEXT,
    push_token_last_updated_timestamp INTEGER,
    push_registration_error_code TEXT
  );
  CREATE INDEX client_device_user ON client_device (user_id, id);
`;
