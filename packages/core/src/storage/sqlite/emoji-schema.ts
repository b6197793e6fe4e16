/**
 * The custom emoji migration (appended to MIGRATIONS).
 *
 * - `realm_emoji` keeps deactivated rows: old messages and reactions still refer to them. The
 *   partial unique index allows one active emoji per realm and name, any number of retired ones.
 * - `realm_emoji_image` holds the uploaded bytes, apart from the emoji rows so that listing a
 *   realm's emoji (every register, every message render) never reads an image. Images live in
 *   the database so that the data directory is only the SQLite file (one file to back up).
 */
export const REALM_EMOJI_MIGRATION = `
  CREATE TABLE realm_emoji (
    id INTEGER PRIMARY KEY,
    realm_id INTEGER NOT NULL REFERENCES realm(id),
    name TEXT NOT NULL,
    author_id INTEGER REFERENCES user(id),
    deactivated INTEGER NOT NULL DEFAULT 0,
    content_type TEXT NOT NULL
  );
  CREATE INDEX realm_emoji_realm ON realm_emoji (realm_id, id);
  CREATE UNIQUE INDEX realm_emoji_active_name ON realm_emoji (realm_id, name) WHERE deactivated = 0;
  CREATE TABLE realm_emoji_image (
    emoji_id INTEGER PRIMARY KEY REFERENCES realm_emoji(id),
    bytes BLOB NOT NULL
  );
`;
