/**
 * The code playgrounds migration (appended to MIGRATIONS). A realm has each (language, name)
 * pair once, as the reference's unique_together; AUTOINCREMENT so that a deleted playground's
 * ID is never handed out again.
 */
export const PLAYGROUNDS_MIGRATION = `
  CREATE TABLE realm_playground (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    realm_id INTEGER NOT NULL REFERENCES realm(id),
    name TEXT NOT NULL,
    pygments_language TEXT NOT NULL,
    url_template TEXT NOT NULL
  );
  CREATE UNIQUE INDEX realm_playground_language_name ON realm_playground (realm_id, pygments_language, name);
`;
