/**
 * Events about users as others see them: realm_user, realm_bot, user_status, presence, user
 * groups, custom profile fields, invitations.
 */
import type { formatUser } from '../../format/user.js';
import type { formatUserGroup } from '../../format/user-group.js';
import type { formatProfileField } from '../../format/profile-field.js';
import type { LegacyClientPresence, ModernPresence } from '../../presence/format.js';
import type { serviceDicts } from '../../bots/profile.js';

/** A user record as register's realm_users has it (`formatUser`), or the "Unknown user" placeholder. */
export type UserRecord = ReturnType<typeof formatUser>;

/** The forms of a realm_user update (API.md 6): one aspect of the user per event. */
export type PersonUpdateFields =
  | { full_name: string }
  | { role: number }
  | { delivery_email: string | null }
  | { new_email: string }
  | { avatar_source: string; avatar_url: string | null; avatar_url_medium: string | null; avatar_version: number }
  | { email: string; timezone: string }
  | { bot_owner_id: number | null }
  | { is_imported_stub: boolean }
  | { date_joined: string }
  | { is_active: boolean }
  | { custom_profile_field: { id: number; value: string | null; rendered_value?: string } };

/** One aspect of a user that changed: `user_id` and the fields of that aspect. */
export type PersonUpdate = { user_id: number } & PersonUpdateFields;

/** A user added to the realm, one aspect of a user changed, or a user no longer visible. */
export type RealmUserEvent =
  | { type: 'realm_user'; op: 'add'; person: UserRecord }
  | { type: 'realm_user'; op: 'update'; person: PersonUpdate }
  | { type: 'realm_user'; op: 'remove'; person: { user_id: number; full_name: string } };

/** The bot record of FL 474: what the user record lacks. */
export interface BotRecord {
  user_id: number;
  default_sending_stream: string | null;
  default_events_register_stream: string | null;
  default_all_public_streams: boolean;
  services: ReturnType<typeof serviceDicts>;
}

/** A bot added, deleted or changed; sent to its owner and to administrators. */
export type RealmBotEvent =
  | { type: 'realm_bot'; op: 'add'; bot: BotRecord }
  | { type: 'realm_bot'; op: 'delete'; bot: { user_id: number } }
  /** The changed fields of the bot record only. */
  | { type: 'realm_bot'; op: 'update'; bot: Pick<BotRecord, 'user_id'> & Partial<BotRecord> };

/** The fields of a status that a change set; `away` is deprecated but still sent. */
export interface UserStatusFields {
  away?: boolean;
  status_text?: string;
  emoji_name?: string;
  emoji_code?: string;
  reaction_type?: string;
}

/** A user's status (text, emoji, away) changed; only the fields the change set. */
export type UserStatusEvent = { type: 'user_status'; user_id: number } & UserStatusFields;

/** Legacy shape (clients without simplified_presence_events). */
export interface LegacyPresenceEvent {
  type: 'presence';
  user_id: number;
  email: string;
  server_timestamp: number;
  presence: { website: LegacyClientPresence };
}

/** Modern shape (simplified_presence_events, FL 419). */
export interface ModernPresenceEvent {
  type: 'presence';
  presences: Record<string, ModernPresence>;
}

/** A user's presence changed, in the shape the queue's client asked for. */
export type PresenceEvent = LegacyPresenceEvent | ModernPresenceEvent;

/** A user group as register's realm_user_groups has it. */
export type UserGroupRecord = ReturnType<typeof formatUserGroup>;
/** A user group created, changed, deactivated, or its members or subgroups changed. */
export type UserGroupEvent =
  | { type: 'user_group'; op: 'add'; group: UserGroupRecord }
  | { type: 'user_group'; op: 'update'; group_id: number; data: Record<string, unknown> }
  | { type: 'user_group'; op: 'remove'; group_id: number }
  | { type: 'user_group'; op: 'add_members' | 'remove_members'; group_id: number; user_ids: number[] }
  | { type: 'user_group'; op: 'add_subgroups' | 'remove_subgroups'; group_id: number; direct_subgroup_ids: number[] };

/** Every custom profile field of the realm after a change; no op, clients replace their list. */
export interface CustomProfileFieldsEvent {
  type: 'custom_profile_fields';
  fields: Array<ReturnType<typeof formatProfileField>>;
}

/** No payload: clients refetch GET /invites. */
export interface InvitesChangedEvent {
  type: 'invites_changed';
}
