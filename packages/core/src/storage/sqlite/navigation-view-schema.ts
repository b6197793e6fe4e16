/**
 * The navigation-views migration (appended to MIGRATIONS). One row per (user, fragment); the
 * unique indexes keep a user's fragments and names distinct even under concurrent requests
 * (SQLite treats NULL names, those of built-in views, as distinct). `id` keeps the order in
 * which views were added, the order GET lists them.
 */
export const NAVIGATION_VIEWS_MIGRATION = `
  CREATE TABLE navigation_view (
    id INTEGER PRIMARY KEY,
    realm_id INTEGER NOT NULL REFERENCES realm(id),
    user_id INTEGER NOT NULL REFERENCES user(id),
    fragment TEXT NOT NULL,
    is_pinned INTEGER NOT NULL,
    name TEXT
  );
  CREATE UNIQUE INDEX navigation_view_fragment ON navigation_view (user_id, fragment);
  CREATE UNIQUE INDEX navigation_view_name ON navigation_view (user_id, name);
`;
