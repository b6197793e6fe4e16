/**
 * The muted-users migration (appended to MIGRATIONS): one row per (muter, muted) pair, in the
 * order the mutes were made (the row ID). The unique key makes a second mute of the same user
 * a no-op; the (muted_user_id, user_id) index answers "who muted the sender" on every send.
 */
export const MUTED_USERS_MIGRATION = `
  CREATE TABLE muted_user (
    id INTEGER PRIMARY KEY,
    realm_id INTEGER NOT NULL REFERENCES realm(id),
    user_id INTEGER NOT NULL REFERENCES user(id),
    muted_user_id INTEGER NOT NULL REFERENCES user(id),
    date_muted INTEGER NOT NULL,
    CHECK (user_id <> muted_user_id)
  );
  CREATE UNIQUE INDEX muted_user_pair ON muted_user (user_id, muted_user_id);
  CREATE INDEX muted_user_muted ON muted_user (muted_user_id, user_id);
`;
