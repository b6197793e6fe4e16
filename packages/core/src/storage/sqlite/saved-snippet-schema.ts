/** The saved-snippets migration (appended to MIGRATIONS): one row per snippet, listed per user. */
export const SAVED_SNIPPETS_MIGRATION = `
  CREATE TABLE saved_snippet (
    id INTEGER PRIMARY KEY,
    realm_id INTEGER NOT NULL REFERENCES realm(id),
    user_id INTEGER NOT NULL REFERENCES user(id),
    title TEXT NOT NULL,
    content TEXT NOT NULL,
    date_created INTEGER NOT NULL
  );
  CREATE INDEX saved_snippet_user ON saved_snippet (user_id, id);
`;
