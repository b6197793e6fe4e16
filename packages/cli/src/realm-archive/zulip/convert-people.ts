/**
 * A Zulip export's realm, users, groups and channels as teamchat rows (still in Zulip's
 * numbering: the import renumbers them). Imported users get no password hash and a fresh API
 * key: the reference's export carries neither.
 */
import { randomBytes } from 'node:crypto';
import { NOTIFICATION_BOT_EMAIL, NOTIFICATION_BOT_NAME, REALM_GROUP_SETTING_DEFAULTS, REALM_SETTING_DEFAULTS, systemGroupId } from '@teamchat/core/internal';
import { CliError } from '../../data-dir.js';
import type { Row } from '../database-handle.js';
import { RECIPIENT_STREAM, type ZRow, type ZulipRealmFile } from './zulip-export-types.js';

/** User-defined groups are shifted past the system groups' fixed IDs (1–8 here), which Zulip's IDs may overlap. */
const GROUP_ID_SHIFT = 100;

/** Zulip's realm-wide system bots, which an export names in `zerver_userprofile_crossrealm`. */
const CROSS_REALM_BOT_NAMES: Record<string, string> = {
  [NOTIFICATION_BOT_EMAIL]: NOTIFICATION_BOT_NAME,
  'welcome-bot@zulip.com': 'Welcome Bot',
  'emailgateway@zulip.com': 'Email Gateway',
};

export const seconds = (value: unknown): number => Math.floor(Number(value ?? 0));
export const flag = (value: unknown): number => (value ? 1 : 0);
const isoTime = (value: unknown) => new Date(seconds(value) * 1000).toISOString();
const nullableFlag = (value: unknown) => (value === null || value === undefined ? null : flag(value));

const API_KEY_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const newApiKey = () => [...randomBytes(32)].map((b) => API_KEY_ALPHABET[b % API_KEY_ALPHABET.length]).join('');

/** Zulip group IDs as this import numbers them: system groups by name, the others shifted. */
export class GroupIds {
  readonly #system = new Map<number, number>();
  constructor(data: ZulipRealmFile) {
    for (const group of namedGroups(data)) {
      const name = String(group.name);
      if (group.is_system_group) {
        try {
          this.#system.set(Number(group.id), systemGroupId(name));
        } catch {
          // A system group this server has no counterpart for (e.g. the reference's newer ones) names nobody.
          this.#system.set(Number(group.id), systemGroupId('role:nobody'));
        }
      }
    }
  }
  isSystem = (zulipId: number) => this.#system.has(zulipId);
  id = (zulipId: unknown): number => this.#system.get(Number(zulipId)) ?? Number(zulipId) + GROUP_ID_SHIFT;
  /** A group setting's value: a group ID, or an anonymous group of members and subgroups. */
  setting = (value: unknown): unknown => {
    if (typeof value === 'number') return this.id(value);
    if (value && typeof value === 'object' && 'direct_members' in value) {
      const group = value as { direct_members: number[]; direct_subgroups: number[] };
      return { direct_members: group.direct_members, direct_subgroups: group.direct_subgroups.map(this.id) };
    }
    return undefined;
  };
}

/** The named groups: `zerver_namedusergroup` since the reference split it from UserGroup, `zerver_usergroup` before. */
export function namedGroups(data: ZulipRealmFile): ZRow[] {
  return data.zerver_namedusergroup ?? (data.zerver_usergroup ?? []).filter((group) => typeof group.name === 'string');
}

export function convertRealm(data: ZulipRealmFile, groups: GroupIds): Row {
  if (data.zerver_realm?.length !== 1) throw new CliError('--from-zulip: realm.json does not hold exactly one realm');
  const realm = data.zerver_realm[0]!;
  const settings: Record<string, unknown> = {};
  // Settings that have the same name and type here as in the reference carry over.
  for (const [key, fallback] of Object.entries(REALM_SETTING_DEFAULTS)) {
    const value = realm[key];
    if (value !== undefined && value !== null && typeof value === typeof fallback) settings[key] = value;
    else if (value === null && (fallback === null || key.endsWith('_seconds'))) settings[key] = null;
  }
  for (const key of Object.keys(REALM_GROUP_SETTING_DEFAULTS)) {
    const value = groups.setting(realm[key]);
    if (value !== undefined) settings[key] = value;
  }
  for (const key of ['new_stream_announcements_stream', 'signup_announcements_stream', 'zulip_update_announcements_stream']) {
    if (typeof realm[key] === 'number') settings[`${key}_id`] = realm[key];
  }
  return {
    id: Number(realm.id),
    subdomain: String(realm.string_id ?? ''),
    name: String(realm.name ?? 'Imported organisation'),
    description: String(realm.description ?? ''),
    url: '',
    uuid: String(realm.uuid ?? ''),
    date_created: seconds(realm.date_created),
    deactivated: flag(realm.deactivated),
    web_public_access_enabled: flag(realm.enable_spectator_access),
    email_auth_enabled: 1,
    default_avatar_source: 'G',
    settings: JSON.stringify(settings),
    user_settings_defaults: '{}',
  };
}

/**
 * The realm's people and bots, its mirror dummies (deactivated stubs of people who never joined)
 * and the reference's cross-realm system bots that sent messages into it (each becomes a bot of
 * the realm; the Notification Bot becomes the realm's own).
 */
export function convertUsers(data: ZulipRealmFile, realmId: number, hasAvatar: (userId: number) => boolean): Row[] {
  const rows: Row[] = [];
  const seen = new Set<number>();
  const push = (row: Row) => {
    if (seen.has(Number(row.id))) return;
    seen.add(Number(row.id));
    rows.push(row);
  };
  const person = (user: ZRow, stub: boolean): Row => ({
    id: Number(user.id),
    realm_id: realmId,
    delivery_email: String(user.delivery_email ?? user.email),
    full_name: String(user.full_name ?? user.email),
    password_hash: null,
    api_key: newApiKey(),
    role: Number(user.role ?? 400),
    is_active: stub ? 0 : flag(user.is_active ?? true),
    is_bot: flag(user.is_bot),
    bot_type: user.is_bot ? Number(user.bot_type ?? 1) : null,
    bot_owner_id: typeof user.bot_owner === 'number' ? user.bot_owner : null,
    timezone: String(user.timezone ?? ''),
    avatar_source: user.avatar_source === 'U' && hasAvatar(Number(user.id)) ? 'U' : 'G',
    avatar_version: Number(user.avatar_version ?? 1),
    date_joined: isoTime(user.date_joined),
    is_imported_stub: flag(stub),
    awaiting_first_login: 0,
    can_create_users: 0,
    can_change_user_emails: 0,
    email_address_visibility: Number(user.email_address_visibility ?? 1),
    settings: '{}',
    is_system_bot: 0,
  });
  for (const user of data.zerver_userprofile) push(person(user, Boolean(user.is_mirror_dummy)));
  for (const user of data.zerver_userprofile_mirrordummy ?? []) push(person(user, true));
  for (const bot of data.zerver_userprofile_crossrealm ?? []) {
    const email = String(bot.email);
    push({
      ...person({ ...bot, full_name: CROSS_REALM_BOT_NAMES[email] ?? email, is_bot: true, bot_type: 1, role: 400, is_active: true }, false),
      is_system_bot: flag(email === NOTIFICATION_BOT_EMAIL),
    });
  }
  return rows;
}

/** Channels and their subscriptions (Zulip subscribes to a channel's Recipient row). */
export function convertChannels(data: ZulipRealmFile, realmId: number, groups: GroupIds): { stream: Row[]; subscription: Row[] } {
  const stream = (data.zerver_stream ?? []).map((s) => {
    const groupSettings: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(s)) {
      if (key.startsWith('can_') && key.endsWith('_group')) {
        const mapped = groups.setting(value);
        if (mapped !== undefined) groupSettings[key] = mapped;
      }
    }
    return {
      id: Number(s.id),
      realm_id: realmId,
      name: String(s.name),
      name_key: String(s.name).toLowerCase(),
      description: String(s.description ?? ''),
      rendered_description: String(s.rendered_description ?? ''),
      date_created: seconds(s.date_created),
      creator_id: typeof s.creator === 'number' ? s.creator : null,
      invite_only: flag(s.invite_only),
      is_web_public: flag(s.is_web_public),
      history_public_to_subscribers: flag(s.history_public_to_subscribers ?? true),
      is_archived: flag(s.deactivated ?? s.is_archived),
      message_retention_days: typeof s.message_retention_days === 'number' ? s.message_retention_days : null,
      first_message_id: typeof s.first_message_id === 'number' ? s.first_message_id : null,
      topics_policy: 'inherit',
      is_recently_active: flag(s.is_recently_active ?? true),
      folder_id: null,
      default_push_notifications: 0,
      group_settings: JSON.stringify(groupSettings),
    };
  });
  const streamOfRecipient = new Map<number, number>();
  for (const r of data.zerver_recipient ?? []) if (r.type === RECIPIENT_STREAM) streamOfRecipient.set(Number(r.id), Number(r.type_id));
  const subscription: Row[] = [];
  for (const sub of data.zerver_subscription ?? []) {
    const streamId = streamOfRecipient.get(Number(sub.recipient));
    if (streamId === undefined) continue;
    subscription.push({
      user_id: Number(sub.user_profile),
      stream_id: streamId,
      realm_id: realmId,
      active: flag(sub.active ?? true),
      color: String(sub.color ?? '#c2c2c2'),
      is_muted: flag(sub.is_muted),
      pin_to_top: flag(sub.pin_to_top),
      desktop_notifications: nullableFlag(sub.desktop_notifications),
      audible_notifications: nullableFlag(sub.audible_notifications),
      push_notifications: nullableFlag(sub.push_notifications),
      email_notifications: nullableFlag(sub.email_notifications),
      wildcard_mentions_notify: nullableFlag(sub.wildcard_mentions_notify),
    });
  }
  return { stream, subscription };
}

/** User-defined groups with their members and subgroups (system groups follow roles here). */
export function convertGroups(data: ZulipRealmFile, realmId: number, groups: GroupIds): { user_group: Row[]; user_group_member: Row[]; user_group_subgroup: Row[] } {
  const user_group: Row[] = [];
  for (const group of namedGroups(data)) {
    if (groups.isSystem(Number(group.id))) continue;
    const settings: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(group)) {
      if (key.startsWith('can_') && key.endsWith('_group')) {
        const mapped = groups.setting(value);
        if (mapped !== undefined) settings[key] = mapped;
      }
    }
    user_group.push({
      id: groups.id(group.id),
      realm_id: realmId,
      name: String(group.name),
      description: String(group.description ?? ''),
      creator_id: typeof group.creator === 'number' ? group.creator : null,
      date_created: seconds(group.date_created),
      deactivated: flag(group.deactivated),
      settings: JSON.stringify(settings),
    });
  }
  const userGroupIds = new Set(user_group.map((g) => g.id as number));
  const user_group_member = (data.zerver_usergroupmembership ?? [])
    .map((m) => ({ group_id: groups.id(m.user_group), user_id: Number(m.user_profile) }))
    .filter((m) => userGroupIds.has(m.group_id));
  const user_group_subgroup = (data.zerver_groupgroupmembership ?? [])
    .map((m) => ({ supergroup_id: groups.id(m.supergroup), subgroup_id: groups.id(m.subgroup) }))
    .filter((m) => userGroupIds.has(m.supergroup_id));
  return { user_group, user_group_member, user_group_subgroup };
}
