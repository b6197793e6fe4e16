/**
 * The linkifiers migration (appended to MIGRATIONS). `sort_order` is the processing order,
 * which PATCH /realm/linkifiers rewrites; a pattern is unique within its realm.
 * alternative_url_templates is a JSON list: it is only ever read and written whole.
 */
export const LINKIFIERS_MIGRATION = `
  CREATE TABLE realm_linkifier (
    id INTEGER PRIMARY KEY,
    realm_id INTEGER NOT NULL REFERENCES realm(id),
    pattern TEXT NOT NULL,
    url_template TEXT NOT NULL,
    example_input TEXT,
    reverse_template TEXT,
    alternative_url_templates TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(alternative_url_templates)),
    sort_order INTEGER NOT NULL
  );
  CREATE UNIQUE INDEX realm_linkifier_pattern ON realm_linkifier (realm_id, pattern);
  CREATE INDEX realm_linkifier_order ON realm_linkifier (realm_id, sort_order, id);
`;
