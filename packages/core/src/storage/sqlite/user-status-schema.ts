/**
 * The user-status migration (appended to MIGRATIONS): at most one row per user, keyed by the
 * user. The register snapshot lists a realm's rows, hence the realm index; a status is read or
 * written by its user's key.
 */
export const USER_STATUS_MIGRATION = `
  CREATE TABLE user_status (
    user_id INTEGER PRIMARY KEY REFERENCES user(id),
    realm_id INTEGER NOT NULL REFERENCES realm(id),
    status_text TEXT NOT NULL DEFAULT '',
    emoji_name TEXT NOT NULL DEFAULT '',
    emoji_code TEXT NOT NULL DEFAULT '',
    reaction_type TEXT NOT NULL DEFAULT 'unicode_emoji'
      CHECK (reaction_type IN ('unicode_emoji', 'realm_emoji', 'service_extra_emoji')),
    timestamp INTEGER NOT NULL
  );
  CREATE INDEX user_status_realm ON user_status (realm_id, user_id);
`;
