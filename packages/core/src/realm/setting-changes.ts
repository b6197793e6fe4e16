/**
 * The plain settings of PATCH /realm: their validation, what each change stores (a realm column
 * or a non-default entry of Realm.settings) and says in its realm/update_dict event. A plan
 * collects the changes first, so a request that fails writes and announces nothing.
 */
import { err, ok, type Result } from 'neverthrow';
import type { Ctx } from '../context.js';
import { ApiError, badRequest } from '../errors.js';
import { activeUserIds, publishOnCommit } from '../events/publish.js';
import { renderRealmDescription } from '../format/realm-description.js';
import type { ApiGroupSettingValue } from '../format/channel.js';
import type { Actor } from '../operation.js';
import type { UpdateRealmInput } from '../schemas/realm.js';
import { REALM_SETTING_DEFAULTS, realmSetting, type RealmSettingName } from '../settings/realm-settings.js';
import type { Realm, RealmStoredSettings, SettingValue, StoredGroupSetting, Tx } from '../storage/types.js';

type Stored = SettingValue | StoredGroupSetting;

/** A changed setting's value in PATCH /realm's answer. */
export type UpdatedRealmValue = string | number | boolean | null | ApiGroupSettingValue;

/**
 * PATCH /realm's answer: each setting the request changed, with its new value; text settings
 * (`name`, `description`, the custom welcome text, the language…) say "updated" instead.
 */
export type UpdatedRealmSettings = { [K in keyof UpdateRealmInput]?: UpdatedRealmValue };

/** The changes of one request, not yet written. */
export class RealmChangePlan {
  readonly events: Record<string, unknown>[] = [];
  readonly response: UpdatedRealmSettings = {};
  private readonly settings: Record<string, Stored>;
  private readonly columns: Partial<Pick<Realm, 'name' | 'description' | 'webPublicAccessEnabled'>> = {};
  private settingsChanged = false;

  constructor(current: RealmStoredSettings) {
    this.settings = { ...current };
  }

  /** Stores a setting; a value equal to the default is dropped, as Realm.settings keeps only non-defaults. */
  setSetting(name: string, value: Stored, defaultValue: Stored): void {
    if (value === defaultValue) delete this.settings[name];
    else this.settings[name] = value;
    this.settingsChanged = true;
  }

  setColumn<K extends keyof RealmChangePlan['columns']>(name: K, value: Realm[K]): void {
    this.columns[name] = value;
  }

  /** One realm/update_dict event's data; the response reports the same keys (text settings as "updated"). */
  announce(data: Record<string, UpdatedRealmValue>, response: Record<string, UpdatedRealmValue> = data): void {
    this.events.push(data);
    Object.assign(this.response, response);
  }

  async write(tx: Tx, realm: Realm): Promise<void> {
    const patch: Partial<Omit<Realm, 'id'>> = { ...this.columns };
    if (this.settingsChanged) patch.settings = this.settings;
    if (Object.keys(patch).length > 0) await tx.realms.update(realm.id, patch);
  }
}

/** realm/update_dict for each change, to every active user of the realm. */
export async function announceRealmUpdate(ctx: Ctx, tx: Tx, realm: Realm, changes: readonly Record<string, unknown>[]): Promise<void> {
  if (changes.length === 0) return;
  const userIds = await activeUserIds(tx, realm.id);
  for (const data of changes) publishOnCommit(ctx, tx, { realmId: realm.id, userIds, event: { type: 'realm', op: 'update_dict', property: 'default', data } });
}

const TIME_LIMITS = [
  'message_content_edit_limit_seconds',
  'message_content_delete_limit_seconds',
  'move_messages_within_stream_limit_seconds',
  'move_messages_between_streams_limit_seconds',
] as const;

/** Plain on/off settings: any boolean is valid, stored and announced as given. */
const SWITCHES = ['allow_message_editing', 'enable_read_receipts', 'presence_disabled', 'enable_guest_user_indicator', 'enable_guest_user_dm_warning'] as const;

const CHANNEL_SETTINGS = [
  'new_stream_announcements_stream_id',
  'signup_announcements_stream_id',
  'zulip_update_announcements_stream_id',
  'moderation_request_channel_id',
] as const;

/** parse_message_time_limit_setting: seconds above zero, or "unlimited" (null). */
function parseTimeLimit(name: string, value: number | string): Result<number | null, ApiError> {
  if (value === 'unlimited') return ok(null);
  if (typeof value === 'string' || value <= 0) {
    return err(new ApiError('REQUEST_VARIABLE_INVALID', `Bad value for '${name}': ${value}`, { var_name: name }));
  }
  return ok(value);
}

/** Validates a channel-valued setting: -1 (or any negative ID) is none; otherwise an active channel of the realm. */
async function parseChannel(tx: Tx, realm: Realm, name: string, id: number): Promise<Result<number, ApiError>> {
  if (id < 0) return ok(-1);
  const stream = await tx.streams.byId(realm.id, id);
  if (!stream || stream.isArchived) return err(badRequest('Invalid channel ID'));
  if (name === 'moderation_request_channel_id' && !stream.inviteOnly) return err(badRequest('Moderation request channel must be private.'));
  return ok(id);
}

/** The request's plain settings (everything but the group settings), validated, in a new plan. */
export async function planPlainSettings(tx: Tx, actor: Actor, params: UpdateRealmInput, now: Date): Promise<Result<RealmChangePlan, ApiError>> {
  const { realm } = actor;
  const plan = new RealmChangePlan(realm.settings);
  const setting = <N extends RealmSettingName>(name: N, value: (typeof REALM_SETTING_DEFAULTS)[N] | SettingValue, data: Record<string, UpdatedRealmValue> = { [name]: value }) => {
    if (value === realmSetting(realm, name)) return;
    plan.setSetting(name, value, REALM_SETTING_DEFAULTS[name]);
    plan.announce(data, { [name]: typeof value === 'string' ? 'updated' : value });
  };
  for (const name of TIME_LIMITS) {
    if (params[name] === undefined) continue;
    const limit = parseTimeLimit(name, params[name]);
    if (limit.isErr()) return err(limit.error);
    setting(name, limit.value);
  }
  for (const name of SWITCHES) {
    if (params[name] !== undefined) setting(name, params[name]);
  }
  if (params.message_edit_history_visibility_policy !== undefined) setting('message_edit_history_visibility_policy', params.message_edit_history_visibility_policy);
  const topicsPolicy = params.topics_policy ?? (params.mandatory_topics === undefined ? undefined : params.mandatory_topics ? 'disable_empty_topic' : 'allow_empty_topic');
  if (topicsPolicy !== undefined) {
    setting('topics_policy', topicsPolicy, { topics_policy: topicsPolicy, mandatory_topics: topicsPolicy === 'disable_empty_topic' });
  }
  if (params.waiting_period_threshold !== undefined) setting('waiting_period_threshold', params.waiting_period_threshold);
  if (params.default_language !== undefined) setting('default_language', params.default_language);
  if (params.video_chat_provider !== undefined) setting('video_chat_provider', params.video_chat_provider);
  if (params.avatar_changes_disabled !== undefined) setting('avatar_changes_disabled', params.avatar_changes_disabled);
  if (params.welcome_message_custom_text !== undefined) setting('welcome_message_custom_text', params.welcome_message_custom_text);
  if (params.name !== undefined && params.name !== realm.name) {
    plan.setColumn('name', params.name);
    plan.announce({ name: params.name }, { name: 'updated' });
  }
  if (params.description !== undefined && params.description !== realm.description) {
    plan.setColumn('description', params.description);
    // The rendered HTML, as register's realm_description: a client applying the event keeps what a fresh register gives.
    plan.announce({ description: renderRealmDescription(realm, params.description, now) }, { description: 'updated' });
  }
  if (params.enable_spectator_access !== undefined && params.enable_spectator_access !== realm.webPublicAccessEnabled) {
    plan.setColumn('webPublicAccessEnabled', params.enable_spectator_access);
    plan.announce({ enable_spectator_access: params.enable_spectator_access });
  }
  for (const name of CHANNEL_SETTINGS) {
    if (params[name] === undefined) continue;
    const id = await parseChannel(tx, realm, name, params[name]);
    if (id.isErr()) return err(id.error);
    setting(name, id.value);
  }
  return ok(plan);
}
