/**
 * The alert-words migration (appended to MIGRATIONS).
 *
 * A table of (realm, user, word) rows rather than a JSON list on the user row, unlike personal
 * settings: sending a message reads the words of every recipient at once (one indexed range
 * per recipient instead of decoding each user's settings), adding and removing words change
 * single rows without rewriting a list, and the unique index on `word_key` (the word as
 * JavaScript's `toLowerCase()` gives it, for every script) keeps a user's words distinct
 * ignoring case even under concurrent requests. WITHOUT ROWID keyed by (user_id, word_key):
 * a user's words are one index range; `id` keeps the order in which they were added.
 */
export const ALERT_WORDS_MIGRATION = `
  CREATE TABLE alert_word (
    realm_id INTEGER NOT NULL REFERENCES realm(id),
    user_id INTEGER NOT NULL REFERENCES user(id),
    word TEXT NOT NULL,
    word_key TEXT NOT NULL,
    id INTEGER NOT NULL,
    PRIMARY KEY (user_id, word_key)
  ) WITHOUT ROWID;
  CREATE INDEX alert_word_order ON alert_word (user_id, id);
`;
