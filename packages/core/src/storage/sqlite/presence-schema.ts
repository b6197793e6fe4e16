/**
 * The presence migration (appended to MIGRATIONS): one row per user who ever reported presence,
 * and one sequence row per realm. Written in batches by the presence flush, never per ping.
 */
export const PRESENCE_MIGRATION = `
  CREATE TABLE user_presence (
    user_id INTEGER PRIMARY KEY REFERENCES user(id),
    realm_id INTEGER NOT NULL REFERENCES realm(id),
    last_active_time INTEGER,
    last_connected_time INTEGER NOT NULL,
    last_update_id INTEGER NOT NULL
  );
  CREATE INDEX user_presence_realm ON user_presence (realm_id, user_id);
  CREATE TABLE presence_sequence (
    realm_id INTEGER PRIMARY KEY REFERENCES realm(id),
    last_update_id INTEGER NOT NULL
  );
`;
