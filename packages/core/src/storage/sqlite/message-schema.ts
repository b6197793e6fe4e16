/**
 * The messages migration (appended to MIGRATIONS). Kept in its own file because it is long.
 *
 * - `message.dm_key` names a direct conversation by its participants' sorted IDs, so "this
 *   conversation" is one indexed equality, whatever the number of participants.
 * - `user_message` is each recipient's copy with its flags as bits (FLAG_BITS). It is
 *   WITHOUT ROWID and keyed (user_id, message_id): a user's history is one index range.
 *   Partial indexes cover the flag narrows that must stay fast with millions of rows
 *   (unread, starred, mentioned); queries spell their conditions exactly as the index does.
 * - `dm_conversation` numbers direct conversations, for the opaque `recipient_id` of messages.
 * - `message_fts` is a contentless FTS5 index over content and topic, keyed by message ID.
 */
export const MESSAGES_MIGRATION = `
  CREATE TABLE message (
    id INTEGER PRIMARY KEY,
    realm_id INTEGER NOT NULL REFERENCES realm(id),
    sender_id INTEGER NOT NULL REFERENCES user(id),
    type TEXT NOT NULL CHECK (type IN ('stream', 'private')),
    stream_id INTEGER,
    topic TEXT NOT NULL DEFAULT '',
    dm_key TEXT,
    content TEXT NOT NULL,
    rendered_content TEXT NOT NULL,
    date_sent INTEGER NOT NULL,
    sending_client TEXT NOT NULL DEFAULT 'API',
    last_edit_time INTEGER,
    last_moved_time INTEGER,
    edit_history TEXT NOT NULL DEFAULT '[]',
    has_link INTEGER NOT NULL DEFAULT 0,
    has_image INTEGER NOT NULL DEFAULT 0,
    has_attachment INTEGER NOT NULL DEFAULT 0,
    is_me_message INTEGER NOT NULL DEFAULT 0
  );
  CREATE INDEX message_stream_topic ON message (stream_id, topic COLLATE NOCASE, id) WHERE stream_id IS NOT NULL;
  CREATE INDEX message_stream ON message (stream_id, id) WHERE stream_id IS NOT NULL;
  CREATE INDEX message_dm ON message (realm_id, dm_key, id) WHERE dm_key IS NOT NULL;
  CREATE INDEX message_sender ON message (sender_id, id);

  CREATE TABLE user_message (
    user_id INTEGER NOT NULL,
    message_id INTEGER NOT NULL REFERENCES message(id) ON DELETE CASCADE,
    flags INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (user_id, message_id)
  ) WITHOUT ROWID;
  CREATE INDEX user_message_by_message ON user_message (message_id);
  CREATE INDEX user_message_unread ON user_message (user_id, message_id) WHERE (flags & 1) = 0;
  CREATE INDEX user_message_starred ON user_message (user_id, message_id) WHERE (flags & 2) <> 0;
  CREATE INDEX user_message_mentioned ON user_message (user_id, message_id) WHERE (flags & 56) <> 0;

  CREATE TABLE reaction (
    id INTEGER PRIMARY KEY,
    realm_id INTEGER NOT NULL REFERENCES realm(id),
    message_id INTEGER NOT NULL REFERENCES message(id) ON DELETE CASCADE,
    user_id INTEGER NOT NULL,
    emoji_name TEXT NOT NULL,
    emoji_code TEXT NOT NULL,
    reaction_type TEXT NOT NULL,
    UNIQUE (message_id, user_id, emoji_code, reaction_type)
  );

  CREATE TABLE dm_conversation (
    id INTEGER PRIMARY KEY,
    realm_id INTEGER NOT NULL REFERENCES realm(id),
    dm_key TEXT NOT NULL,
    UNIQUE (realm_id, dm_key)
  );

  CREATE VIRTUAL TABLE message_fts USING fts5(content, topic, content='', contentless_delete=1, tokenize='unicode61 remove_diacritics 2');
`;
