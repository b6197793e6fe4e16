/**
 * Events about users as others see them: realm_user, realm_bot, user_status, presence, user
 * groups, custom profile fields, invitations.
 */
import type { LegacyClientPresence, ModernPresence } from '../../presence/format.js';

/** A user record as register's realm_users has it (`formatUser`), or the "Unknown user" placeholder. */
export type UserRecord = Record<string, unknown>;

/** One aspect of a user that changed (API.md 6): `user_id` and the fields of that aspect. */
export type PersonUpdate = { user_id: number } & Record<string, unknown>;

export type RealmUserEvent =
  | { type: 'realm_user'; op: 'add'; person: UserRecord }
  | { type: 'realm_user'; op: 'update'; person: PersonUpdate }
  | { type: 'realm_user'; op: 'remove'; person: { user_id: number; full_name: string } };

/** The bot record of FL 474: what the user record lacks. */
export type BotRecord = { user_id: number } & Record<string, unknown>;

export type RealmBotEvent =
  | { type: 'realm_bot'; op: 'add'; bot: BotRecord }
  | { type: 'realm_bot'; op: 'delete'; bot: { user_id: number } }
  | { type: 'realm_bot'; op: 'update'; bot: BotRecord };

/** The fields of a status change that changed (`checkStatusChange`'s event part). */
export type UserStatusEvent = { type: 'user_status'; user_id: number } & Record<string, unknown>;

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

export type PresenceEvent = LegacyPresenceEvent | ModernPresenceEvent;

export type UserGroupRecord = Record<string, unknown>;
export type UserGroupEvent =
  | { type: 'user_group'; op: 'add'; group: UserGroupRecord }
  | { type: 'user_group'; op: 'update'; group_id: number; data: Record<string, unknown> }
  | { type: 'user_group'; op: 'remove'; group_id: number }
  | { type: 'user_group'; op: 'add_members' | 'remove_members'; group_id: number; user_ids: number[] }
  | { type: 'user_group'; op: 'add_subgroups' | 'remove_subgroups'; group_id: number; direct_subgroup_ids: number[] };

/** Every custom profile field of the realm after a change; no op, clients replace their list. */
export interface CustomProfileFieldsEvent {
  type: 'custom_profile_fields';
  fields: Array<Record<string, unknown>>;
}

/** No payload: clients refetch GET /invites. */
export interface InvitesChangedEvent {
  type: 'invites_changed';
}
