/**
 * The user-topics migration (appended to MIGRATIONS). One row per (user, channel, topic) with
 * a policy other than "none"; the unique index folds case as message topics are compared
 * (COLLATE NOCASE), so "Lunch" and "lunch" are one topic, as in the reference's iexact match.
 * The (stream_id, topic) index serves moving a topic's rows along with its messages.
 */
export const USER_TOPICS_MIGRATION = `
  CREATE TABLE user_topic (
    realm_id INTEGER NOT NULL REFERENCES realm(id),
    user_id INTEGER NOT NULL REFERENCES user(id),
    stream_id INTEGER NOT NULL REFERENCES stream(id),
    topic TEXT NOT NULL,
    visibility_policy INTEGER NOT NULL CHECK (visibility_policy IN (1, 2, 3)),
    last_updated INTEGER NOT NULL
  );
  CREATE UNIQUE INDEX user_topic_key ON user_topic (user_id, stream_id, topic COLLATE NOCASE);
  CREATE INDEX user_topic_stream_topic ON user_topic (stream_id, topic COLLATE NOCASE);
`;
