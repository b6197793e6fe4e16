/**
 * Who takes part in each direct conversation, one row per (user, conversation), for the questions
 * asked from one user's side ("my recent conversations") without reading every conversation of
 * the realm. Filled from `dm_conversation` here and kept by MessageStore.insert; like
 * `dm_conversation` it outlives the messages, and the per-user answers look at the user's copies
 * to decide what is still theirs.
 */
export const DM_PARTICIPANTS_MIGRATION = `
  CREATE TABLE dm_participant (
    user_id INTEGER NOT NULL,
    realm_id INTEGER NOT NULL REFERENCES realm(id),
    dm_key TEXT NOT NULL,
    PRIMARY KEY (user_id, dm_key)
  ) WITHOUT ROWID;
  INSERT OR IGNORE INTO dm_participant (user_id, realm_id, dm_key)
    SELECT participant.value, c.realm_id, c.dm_key FROM dm_conversation c, json_each('[' || c.dm_key || ']') participant;
`;
