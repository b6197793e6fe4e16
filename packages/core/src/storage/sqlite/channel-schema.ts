/**
 * The channels migration (appended to MIGRATIONS): channels, subscriptions, default channels.
 *
 * - `stream.name_key` is the name as JavaScript's `toLowerCase()` gives it, written by the
 *   store: the unique index on it makes names unique per realm ignoring case for every script,
 *   not only the ASCII letters SQLite's NOCASE folds.
 * - `stream.group_settings` holds the channel's `can_*_group` values as one JSON object.
 * - `subscription` is keyed (user_id, stream_id) WITHOUT ROWID: a user's subscriptions are one
 *   index range. `subscription_stream_active` serves "the active subscribers of a channel"
 *   (the join with `user` keeps deactivated users out) and covers the query.
 */
export const CHANNELS_MIGRATION = `
  CREATE TABLE stream (
    id INTEGER PRIMARY KEY,
    realm_id INTEGER NOT NULL REFERENCES realm(id),
    name TEXT NOT NULL,
    name_key TEXT NOT NULL,
    description TEXT NOT NULL DEFAULT '',
    rendered_description TEXT NOT NULL DEFAULT '',
    date_created INTEGER NOT NULL,
    creator_id INTEGER REFERENCES user(id),
    invite_only INTEGER NOT NULL DEFAULT 0,
    is_web_public INTEGER NOT NULL DEFAULT 0,
    history_public_to_subscribers INTEGER NOT NULL DEFAULT 1,
    is_archived INTEGER NOT NULL DEFAULT 0,
    message_retention_days INTEGER,
    first_message_id INTEGER,
    topics_policy TEXT NOT NULL DEFAULT 'inherit',
    is_recently_active INTEGER NOT NULL DEFAULT 1,
    folder_id INTEGER,
    default_push_notifications INTEGER NOT NULL DEFAULT 0,
    group_settings TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(group_settings) AND json_type(group_settings) = 'object')
  );
  CREATE UNIQUE INDEX stream_realm_name ON stream (realm_id, name_key);

  CREATE TABLE subscription (
    user_id INTEGER NOT NULL REFERENCES user(id),
    stream_id INTEGER NOT NULL REFERENCES stream(id),
    realm_id INTEGER NOT NULL REFERENCES realm(id),
    active INTEGER NOT NULL DEFAULT 1,
    color TEXT NOT NULL,
    is_muted INTEGER NOT NULL DEFAULT 0,
    pin_to_top INTEGER NOT NULL DEFAULT 0,
    desktop_notifications INTEGER,
    audible_notifications INTEGER,
    push_notifications INTEGER,
    email_notifications INTEGER,
    wildcard_mentions_notify INTEGER,
    PRIMARY KEY (user_id, stream_id)
  ) WITHOUT ROWID;
  CREATE INDEX subscription_stream_active ON subscription (stream_id, active, user_id);

  CREATE TABLE default_stream (
    realm_id INTEGER NOT NULL REFERENCES realm(id),
    stream_id INTEGER NOT NULL REFERENCES stream(id),
    PRIMARY KEY (realm_id, stream_id)
  ) WITHOUT ROWID;
`;
