/**
 * The custom profile field migration (appended to MIGRATIONS).
 *
 * - `custom_profile_field`: a realm's definitions, unique by label within the realm (the
 *   reference's unique_together). `field_data` is JSON text, NULL when the type uses none.
 * - `custom_profile_field_value`: one row per (user, field), deleted with its field. The
 *   rendered Markdown is stored with the value, as in the reference, so that listing a realm's
 *   users never renders.
 */
export const PROFILE_FIELDS_MIGRATION = `
  CREATE TABLE custom_profile_field (
    id INTEGER PRIMARY KEY,
    realm_id INTEGER NOT NULL REFERENCES realm(id),
    name TEXT NOT NULL,
    hint TEXT NOT NULL,
    type INTEGER NOT NULL,
    field_data TEXT CHECK (field_data IS NULL OR json_valid(field_data)),
    "order" INTEGER NOT NULL DEFAULT 0,
    required INTEGER NOT NULL,
    editable_by_user INTEGER NOT NULL,
    display_in_profile_summary INTEGER NOT NULL,
    use_for_user_matching INTEGER NOT NULL
  );
  CREATE UNIQUE INDEX custom_profile_field_name ON custom_profile_field (realm_id, name);
  CREATE TABLE custom_profile_field_value (
    field_id INTEGER NOT NULL REFERENCES custom_profile_field(id) ON DELETE CASCADE,
    user_id INTEGER NOT NULL REFERENCES user(id),
    value TEXT NOT NULL,
    rendered_value TEXT,
    PRIMARY KEY (user_id, field_id)
  );
  CREATE INDEX custom_profile_field_value_field ON custom_profile_field_value (field_id);
`;
