/**
 * The bot storage migration (appended to MIGRATIONS): one row per (user, key). The realm is
 * kept on the row so that every lookup is realm-scoped like the other stores'.
 */
export const BOT_STORAGE_MIGRATION = `
  CREATE TABLE bot_storage (
    realm_id INTEGER NOT NULL REFERENCES realm(id),
    user_id INTEGER NOT NULL REFERENCES user(id),
    key TEXT NOT NULL,
    value TEXT NOT NULL,
    PRIMARY KEY (user_id, key)
  ) WITHOUT ROWID;
`;
