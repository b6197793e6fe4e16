/**
 * The bots migration (appended to MIGRATIONS): one row per bot that has settings beyond its
 * user row. The service and config columns sit on the same row because the reference gives a
 * bot at most one service ("always a single-element array") and one small config dictionary.
 * Stream IDs are not foreign keys: a channel is archived, never deleted, and the name is
 * looked up when the bot is formatted.
 */
export const BOTS_MIGRATION = `
  CREATE TABLE bot_profile (
    bot_id INTEGER PRIMARY KEY REFERENCES user(id),
    realm_id INTEGER NOT NULL REFERENCES realm(id),
    default_sending_stream_id INTEGER,
    default_events_register_stream_id INTEGER,
    default_all_public_streams INTEGER NOT NULL DEFAULT 0,
    service_name TEXT,
    service_base_url TEXT,
    service_interface INTEGER,
    service_token TEXT,
    config_data TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(config_data) AND json_type(config_data) = 'object')
  );
  CREATE INDEX bot_profile_realm ON bot_profile (realm_id, bot_id);
`;
