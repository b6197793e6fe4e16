/**
 * The channel-folders migration (appended to MIGRATIONS). `name_key` is the name as
 * JavaScript's `toLowerCase()` gives it (as for channels): its unique index keeps a realm's
 * folder names distinct ignoring case, even under concurrent requests. `sort_order` is the
 * position PATCH /channel_folders rewrites.
 */
export const CHANNEL_FOLDERS_MIGRATION = `
  CREATE TABLE channel_folder (
    id INTEGER PRIMARY KEY,
    realm_id INTEGER NOT NULL REFERENCES realm(id),
    name TEXT NOT NULL,
    name_key TEXT NOT NULL,
    description TEXT NOT NULL DEFAULT '',
    rendered_description TEXT NOT NULL DEFAULT '',
    creator_id INTEGER REFERENCES user(id),
    date_created INTEGER NOT NULL,
    is_archived INTEGER NOT NULL DEFAULT 0,
    sort_order INTEGER NOT NULL
  );
  CREATE UNIQUE INDEX channel_folder_realm_name ON channel_folder (realm_id, name_key);
  CREATE INDEX channel_folder_order ON channel_folder (realm_id, sort_order, id);
`;
