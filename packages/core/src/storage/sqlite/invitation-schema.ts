/**
 * The invitations migration (appended to MIGRATIONS). One table for both kinds: a reusable
 * link is a row without an email. Channel and group IDs are JSON lists because they are only
 * read and written whole with their invitation. GET /invites scans a realm's pending rows.
 */
export const INVITATIONS_MIGRATION = `
  CREATE TABLE invitation (
    id INTEGER PRIMARY KEY,
    realm_id INTEGER NOT NULL REFERENCES realm(id),
    referrer_id INTEGER NOT NULL REFERENCES user(id),
    email TEXT,
    is_multiuse INTEGER NOT NULL CHECK (is_multiuse = (email IS NULL)),
    invite_as INTEGER NOT NULL CHECK (invite_as IN (100, 200, 300, 400, 600)),
    stream_ids TEXT NOT NULL CHECK (json_valid(stream_ids) AND json_type(stream_ids) = 'array'),
    group_ids TEXT NOT NULL CHECK (json_valid(group_ids) AND json_type(group_ids) = 'array'),
    include_realm_default_subscriptions INTEGER NOT NULL,
    notify_referrer_on_join INTEGER NOT NULL,
    welcome_message_custom_text TEXT,
    invited_at INTEGER NOT NULL,
    expires_at INTEGER,
    key TEXT NOT NULL UNIQUE,
    status TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'used', 'revoked'))
  );
  CREATE INDEX invitation_pending ON invitation (realm_id, status, id);
`;
