/**
 * The user-groups migration (appended to MIGRATIONS). A name is unique within its realm in any
 * case. IDs start above the system groups' fixed IDs (1-8, access/system-groups.ts) so that a
 * group setting or mention naming an ID is never ambiguous.
 */
export const USER_GROUPS_MIGRATION = `
  CREATE TABLE user_group (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    realm_id INTEGER NOT NULL REFERENCES realm(id),
    name TEXT NOT NULL,
    description TEXT NOT NULL,
    creator_id INTEGER REFERENCES user(id),
    date_created INTEGER NOT NULL,
    deactivated INTEGER NOT NULL DEFAULT 0
  );
  CREATE UNIQUE INDEX user_group_name ON user_group (realm_id, name COLLATE NOCASE);
  INSERT INTO sqlite_sequence (name, seq) VALUES ('user_group', 100);
  CREATE TABLE user_group_member (
    group_id INTEGER NOT NULL REFERENCES user_group(id),
    user_id INTEGER NOT NULL REFERENCES user(id),
    PRIMARY KEY (group_id, user_id)
  ) WITHOUT ROWID;
  CREATE INDEX user_group_member_user ON user_group_member (user_id);
`;

/**
 * Subgroups and per-group permission settings (appended to MIGRATIONS after the first). A
 * subgroup may be a system group, which is not stored, so `subgroup_id` has no foreign key.
 * Settings are one JSON object of StoredGroupSettings by API name, as for channels.
 */
export const USER_GROUP_SUBGROUPS_MIGRATION = `
  ALTER TABLE user_group ADD COLUMN settings TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(settings) AND json_type(settings) = 'object');
  CREATE TABLE user_group_subgroup (
    supergroup_id INTEGER NOT NULL REFERENCES user_group(id),
    subgroup_id INTEGER NOT NULL,
    PRIMARY KEY (supergroup_id, subgroup_id)
  ) WITHOUT ROWID;
  CREATE INDEX user_group_subgroup_subgroup ON user_group_subgroup (subgroup_id);
`;
