/**
 * The drafts migration (appended to MIGRATIONS). A row per draft; `to_ids` is a JSON list
 * because a draft's addressees are only ever read and written whole with it (nothing queries
 * drafts by channel or user). Lists read one user's drafts by edit time, hence the index.
 */
export const DRAFTS_MIGRATION = `
  CREATE TABLE draft (
    id INTEGER PRIMARY KEY,
    realm_id INTEGER NOT NULL REFERENCES realm(id),
    user_id INTEGER NOT NULL REFERENCES user(id),
    type TEXT NOT NULL CHECK (type IN ('', 'stream', 'private')),
    to_ids TEXT NOT NULL CHECK (json_valid(to_ids) AND json_type(to_ids) = 'array'),
    topic TEXT NOT NULL,
    content TEXT NOT NULL,
    last_edit_time REAL NOT NULL
  );
  CREATE INDEX draft_user_edit ON draft (user_id, last_edit_time, id);
`;
