/**
 * Versioned schema. Each entry runs once, in order; the pending entries of one open run inside
 * one transaction (all or nothing). The applied version is kept in `PRAGMA user_version`.
 * Never edit an applied entry: append a new one.
 */
import { CHANNELS_MIGRATION } from './channel-schema.js';
import { MESSAGES_MIGRATION } from './message-schema.js';
import { REALM_EMOJI_MIGRATION } from './emoji-schema.js';
import { ALERT_WORDS_MIGRATION } from './alert-word-schema.js';
import { DRAFTS_MIGRATION } from './draft-schema.js';
import { REMINDERS_MIGRATION, SCHEDULED_MESSAGES_MIGRATION } from './scheduled-message-schema.js';
import { PROFILE_FIELDS_MIGRATION } from './profile-field-schema.js';
import { NAVIGATION_VIEWS_MIGRATION } from './navigation-view-schema.js';
import { LINKIFIERS_MIGRATION } from './linkifier-schema.js';
import { USER_GROUP_SUBGROUPS_MIGRATION, USER_GROUPS_MIGRATION } from './user-group-schema.js';
import { SAVED_SNIPPETS_MIGRATION } from './saved-snippet-schema.js';
import { PUSH_MIGRATION } from './push-schema.js';
import { REALM_DOMAINS_MIGRATION } from './realm-domain-schema.js';
import { KEPT_IDS_MIGRATION } from './kept-ids.js';
import { ATTACHMENTS_MIGRATION } from './attachment-schema.js';
import { USER_TOPICS_MIGRATION } from './user-topic-schema.js';
import { CHANNEL_FOLDERS_MIGRATION } from './channel-folder-schema.js';
import { INVITATIONS_MIGRATION } from './invitation-schema.js';
import { PLAYGROUNDS_MIGRATION } from './playground-schema.js';
import { BOT_STORAGE_MIGRATION } from './bot-storage-schema.js';
import { USER_STATUS_MIGRATION } from './user-status-schema.js';
import { MUTED_USERS_MIGRATION } from './muted-user-schema.js';
import { DM_PARTICIPANTS_MIGRATION } from './dm-participant-schema.js';
import { BOTS_MIGRATION } from './bot-schema.js';
import { PRESENCE_MIGRATION } from './presence-schema.js';
import { SUBMESSAGES_MIGRATION } from './submessage-schema.js';
import { FORMAT_STAMPS_MIGRATION } from './message-stamp-schema.js';

export const MIGRATIONS: readonly string[] = [
  /* 1: realms, users, outbox */ `
  CREATE TABLE realm (
    id INTEGER PRIMARY KEY,
    subdomain TEXT NOT NULL UNIQUE,
    name TEXT NOT NULL,
    description TEXT NOT NULL DEFAULT '',
    url TEXT NOT NULL,
    uuid TEXT NOT NULL,
    date_created INTEGER NOT NULL,
    deactivated INTEGER NOT NULL DEFAULT 0,
    web_public_access_enabled INTEGER NOT NULL DEFAULT 0,
    email_auth_enabled INTEGER NOT NULL DEFAULT 1,
    default_avatar_source TEXT NOT NULL DEFAULT 'G'
  );
  CREATE TABLE user (
    id INTEGER PRIMARY KEY,
    realm_id INTEGER NOT NULL REFERENCES realm(id),
    delivery_email TEXT NOT NULL,
    full_name TEXT NOT NULL,
    password_hash TEXT,
    api_key TEXT NOT NULL UNIQUE,
    role INTEGER NOT NULL,
    is_active INTEGER NOT NULL DEFAULT 1,
    is_bot INTEGER NOT NULL DEFAULT 0,
    bot_type INTEGER,
    bot_owner_id INTEGER REFERENCES user(id),
    timezone TEXT NOT NULL DEFAULT '',
    avatar_source TEXT NOT NULL DEFAULT 'G',
    avatar_version INTEGER NOT NULL DEFAULT 1,
    date_joined TEXT NOT NULL,
    is_imported_stub INTEGER NOT NULL DEFAULT 0,
    awaiting_first_login INTEGER NOT NULL DEFAULT 0,
    can_create_users INTEGER NOT NULL DEFAULT 0,
    can_change_user_emails INTEGER NOT NULL DEFAULT 0,
    email_address_visibility INTEGER NOT NULL DEFAULT 1
  );
  CREATE UNIQUE INDEX user_realm_email ON user (realm_id, delivery_email COLLATE NOCASE);
  CREATE INDEX user_bot_owner ON user (realm_id, bot_owner_id);
  CREATE TABLE outbox (
    id INTEGER PRIMARY KEY,
    realm_id INTEGER NOT NULL REFERENCES realm(id),
    to_address TEXT NOT NULL,
    subject TEXT NOT NULL,
    body TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    sent_at INTEGER
  );
  CREATE INDEX outbox_pending ON outbox (sent_at, id);
  `,
  /*
   * 2: personal settings, as one JSON object per user holding only the values that differ from
   * the defaults. A column rather than a table of (user, name, value) rows: every read of a
   * user (register, typing and notification decisions over a realm's users) gets its settings
   * without a join, a settings change writes one row, and the ~60 settings change with the API
   * (FL by FL) without a migration each. Only non-defaults are stored, so a user who never
   * touched a setting follows the server's default. PostgreSQL would use a JSONB column.
   */ `
  ALTER TABLE user ADD COLUMN settings TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(settings) AND json_type(settings) = 'object');
  `,
  /* 3: messages, recipients' copies with flags, reactions, full-text index */ MESSAGES_MIGRATION,
  /* 4: channels, subscriptions, default channels */ CHANNELS_MIGRATION,
  /* 5: custom emoji and their images */ REALM_EMOJI_MIGRATION,
  /* 6: users' alert words (see alert-word-schema.ts for why a table) */ ALERT_WORDS_MIGRATION,
  /* 7: users' navigation views (FACTS.md 6.8) */ NAVIGATION_VIEWS_MIGRATION,
  /* 8: custom profile fields and their values (see profile-field-schema.ts) */ PROFILE_FIELDS_MIGRATION,
  /* 9: users' drafts (FACTS.md 6.2; see draft-schema.ts) */ DRAFTS_MIGRATION,
  /* 10: realm linkifiers in processing order (see linkifier-schema.ts) */ LINKIFIERS_MIGRATION,
  /* 11: realm user groups and their direct members (see user-group-schema.ts) */ USER_GROUPS_MIGRATION,
  /* 12: users' scheduled messages (FACTS.md 6.3; see scheduled-message-schema.ts) */ SCHEDULED_MESSAGES_MIGRATION,
  /* 13: realm settings, as one JSON object of the non-default values (as for users' settings, migration 2) */ `
  ALTER TABLE realm ADD COLUMN settings TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(settings) AND json_type(settings) = 'object');
  `,
  /* 14: users' saved snippets (see saved-snippet-schema.ts) */ SAVED_SNIPPETS_MIGRATION,
  /* 15: the settings new users of a realm start with, non-default values only (as migration 2) */ `
  ALTER TABLE realm ADD COLUMN user_settings_defaults TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(user_settings_defaults) AND json_type(user_settings_defaults) = 'object');
  `,
  /* 16: the email domains a realm calls its own (see realm-domain-schema.ts) */ REALM_DOMAINS_MIGRATION,
  /* 17: uploaded files and the messages linking them (see attachment-schema.ts) */ ATTACHMENTS_MIGRATION,
  /* 18: users' topic visibility policies (see user-topic-schema.ts) */ USER_TOPICS_MIGRATION,
  /* 19: realm channel folders (API.md section 6 channel_folder; see channel-folder-schema.ts) */ CHANNEL_FOLDERS_MIGRATION,
  /* 20: system bots (the Notification Bot), one per realm, kept apart from the realm's people */ `
  ALTER TABLE user ADD COLUMN is_system_bot INTEGER NOT NULL DEFAULT 0;
  `,
  /* 21: email invitations and reusable invitation links (see invitation-schema.ts) */ INVITATIONS_MIGRATION,
  /* 22: reminders, as scheduled-message rows of their own delivery type (see scheduled-message-schema.ts) */ REMINDERS_MIGRATION,
  /* 23: user groups' subgroups and permission settings (see user-group-schema.ts) */ USER_GROUP_SUBGROUPS_MIGRATION,
  /* 24: IDs never handed out twice (see kept-ids.ts) */ KEPT_IDS_MIGRATION,
  /* 25: realm code playgrounds (see playground-schema.ts) */ PLAYGROUNDS_MIGRATION,
  /* 26: users' /bot_storage entries (see bot-storage-schema.ts) */ BOT_STORAGE_MIGRATION,
  /* 27: users' statuses (see user-status-schema.ts) */ USER_STATUS_MIGRATION,
  /* 28: users' muted users (see muted-user-schema.ts) */ MUTED_USERS_MIGRATION,
  /* 29: each direct conversation's participants, for per-user conversation lists (see dm-participant-schema.ts) */ DM_PARTICIPANTS_MIGRATION,
  /* 30: bots' default channels, service and config (see bot-schema.ts) */ BOTS_MIGRATION,
  /* 31: users' presence and each realm's presence sequence, written in batches (see presence-schema.ts) */ PRESENCE_MIGRATION,
  /* 32: submessages of widget messages (see submessage-schema.ts) */ SUBMESSAGES_MIGRATION,
  /* 33: push device tokens and the notifications showing on devices (see push-schema.ts) */ PUSH_MIGRATION,
  /*
   * 34: a token of the channels' and subscriptions' state (StreamStore.stateToken): triggers set
   * a fresh random value with every write to either table, inside the writing transaction, so
   * a rolled-back write restores the old token and two states never share one. Readers cache
   * what they derive from these tables under the token (messages/readable.ts).
   */ `
  CREATE TABLE channel_state (id INTEGER PRIMARY KEY CHECK (id = 1), token INTEGER NOT NULL);
  INSERT INTO channel_state (id, token) VALUES (1, random());
  CREATE TRIGGER stream_state_insert AFTER INSERT ON stream BEGIN UPDATE channel_state SET token = random() WHERE id = 1; END;
  CREATE TRIGGER stream_state_update AFTER UPDATE ON stream BEGIN UPDATE channel_state SET token = random() WHERE id = 1; END;
  CREATE TRIGGER stream_state_delete AFTER DELETE ON stream BEGIN UPDATE channel_state SET token = random() WHERE id = 1; END;
  CREATE TRIGGER subscription_state_insert AFTER INSERT ON subscription BEGIN UPDATE channel_state SET token = random() WHERE id = 1; END;
  CREATE TRIGGER subscription_state_update AFTER UPDATE ON subscription BEGIN UPDATE channel_state SET token = random() WHERE id = 1; END;
  CREATE TRIGGER subscription_state_delete AFTER DELETE ON subscription BEGIN UPDATE channel_state SET token = random() WHERE id = 1; END;
  `,
  /* 35: each changed message's format stamp and the users' state token, for what pages of messages keep (see message-stamp-schema.ts) */ FORMAT_STAMPS_MIGRATION,
];
