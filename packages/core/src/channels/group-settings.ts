/**
 * The channel `can_*_group` settings as requests set them: parsed with the group-setting parser
 * against CHANNEL_GROUP_PERMISSIONS, with the reference's extra rules (content access for the
 * settings that grant it, protected history needing everyone to create topics, the realm's
 * can_set_delete_message_policy_group for the delete settings), and each change written and
 * announced as do_change_stream_group_based_setting does. Runs inside the caller's transaction.
 */
import { err, ok, type Result } from 'neverthrow';
import {
  CHANNEL_GROUP_SETTINGS,
  CHANNEL_SETTINGS_GRANTING_METADATA_ACCESS,
  CHANNEL_SETTINGS_REQUIRING_CONTENT_ACCESS,
  type ChannelGroupSetting,
  canSetDeleteMessagePolicy,
  channelGroup,
  hasContentAccess,
  streamPostPolicy,
} from '../access/channel-rules.js';
import { activeUsers, metadataAudience } from '../access/channels.js';
import { loadGroupDirectory } from '../access/group-membership.js';
import { groupSettingForApi, systemGroupId } from '../access/system-groups.js';
import type { Ctx } from '../context.js';
import { type ApiError, badRequest, incompatibleParameters, insufficientPermission } from '../errors.js';
import type { Actor } from '../operation.js';
import {
  type ApiGroupSettingValue,
  canonicalGroupSetting,
  type GroupDirectory,
  type GroupSettingChange,
  groupSettingChanges,
  resolveGroupSetting,
} from '../schemas/group-setting.js';
import { CHANNEL_GROUP_PERMISSIONS } from '../settings/realm-group-permissions.js';
import type { Realm, StoredGroupSetting, Stream, Tx } from '../storage/types.js';
import { announceVisibilityChange } from './changes.js';
import { announceStreamUpdate } from './events.js';

export type ChannelGroupValues = Partial<Record<ChannelGroupSetting, StoredGroupSetting>>;

const DELETE_SETTINGS: readonly ChannelGroupSetting[] = ['can_delete_any_message_group', 'can_delete_own_message_group'];

/**
 * validate_can_create_topic_group_setting_for_protected_history_streams: where subscribers do not
 * see the history, everyone must be able to start topics, so the setting must be exactly
 * `role:everyone` (an anonymous group of everyone plus others is not enough).
 */
export function checkProtectedHistoryTopics(historyPublic: boolean, value: ApiGroupSettingValue): Result<void, ApiError> {
  if (historyPublic || canonicalGroupSetting(value) === systemGroupId('role:everyone')) return ok(undefined);
  return err(incompatibleParameters(['history_public_to_subscribers', 'can_create_topic_group']));
}

/** One setting's new value validated against the realm's groups and users, in its stored form. */
function resolveValue(name: ChannelGroupSetting, value: ApiGroupSettingValue, directory: GroupDirectory): Result<StoredGroupSetting, ApiError> {
  return resolveGroupSetting(name, value, CHANNEL_GROUP_PERMISSIONS[name], directory);
}

/**
 * access_requested_group_permissions_for_streams: the settings a channel-creation request gives,
 * in their stored form; the others keep the defaults of defaultChannelGroups.
 */
export async function parseCreationGroupSettings(
  tx: Tx,
  actor: Actor,
  requested: Partial<Record<ChannelGroupSetting, ApiGroupSettingValue>>,
  historyPublic: boolean,
): Promise<Result<ChannelGroupValues, ApiError>> {
  const names = CHANNEL_GROUP_SETTINGS.filter((name) => requested[name] !== undefined);
  if (names.length === 0) return ok({});
  const directory = await loadGroupDirectory(tx, actor.realm.id);
  const values: ChannelGroupValues = {};
  for (const name of names) {
    const value = requested[name]!;
    if (name === 'can_create_topic_group') {
      const allowed = checkProtectedHistoryTopics(historyPublic, value);
      if (allowed.isErr()) return err(allowed.error);
    }
    const stored = resolveValue(name, value, directory);
    if (stored.isErr()) return err(stored.error);
    // Leaving the default (nobody) needs no permission; anything else does.
    if (DELETE_SETTINGS.includes(name) && stored.value !== 'role:nobody' && !canSetDeleteMessagePolicy(actor.user, actor.realm)) {
      return err(insufficientPermission());
    }
    values[name] = stored.value;
  }
  return ok(values);
}

/** A validated change of PATCH /streams/{id}, not yet written. */
interface PlannedChange {
  name: ChannelGroupSetting;
  value: StoredGroupSetting;
}

/**
 * The group settings a PATCH changes, validated in update_stream_backend's order: `old` against
 * the current value, content access for the settings that grant it, the realm's delete-policy
 * permission, then the value itself. Unchanged settings are left out (they write and announce nothing).
 */
export async function planChannelGroupChanges(
  tx: Tx,
  actor: Actor,
  stream: Stream,
  subscribed: boolean,
  requested: Partial<Record<ChannelGroupSetting, GroupSettingChange>>,
): Promise<Result<PlannedChange[], ApiError>> {
  const names = CHANNEL_GROUP_SETTINGS.filter((name) => requested[name] !== undefined);
  if (names.length === 0) return ok([]);
  const directory = await loadGroupDirectory(tx, actor.realm.id);
  const planned: PlannedChange[] = [];
  for (const name of names) {
    const change = requested[name]!;
    const changes = groupSettingChanges(channelGroup(stream, name), change);
    if (changes.isErr()) return err(changes.error);
    if (!changes.value) continue;
    if (CHANNEL_SETTINGS_REQUIRING_CONTENT_ACCESS.includes(name) && !hasContentAccess(actor.user, stream, subscribed)) {
      return err(badRequest('Channel content access is required.'));
    }
    if (DELETE_SETTINGS.includes(name) && !canSetDeleteMessagePolicy(actor.user, actor.realm)) return err(insufficientPermission());
    const stored = resolveValue(name, change.new, directory);
    if (stored.isErr()) return err(stored.error);
    planned.push({ name, value: stored.value });
  }
  return ok(planned);
}

/**
 * do_change_stream_group_based_setting: stores the value and sends stream/update with its API
 * value to everyone who may see the channel. A setting that decides who may see it also sends
 * stream/create (and peer_add) to those who now may and stream/delete to those who no longer
 * may; can_send_message_group also updates the derived stream_post_policy and is_announcement_only.
 */
export async function changeChannelGroupSetting(ctx: Ctx, tx: Tx, realm: Realm, stream: Stream, change: PlannedChange): Promise<Stream> {
  const { name, value } = change;
  const after: Stream = { ...stream, groupSettings: { ...stream.groupSettings, [name]: value } };
  await tx.streams.update(realm.id, stream.id, { groupSettings: after.groupSettings });
  const users = await activeUsers(tx, realm.id);
  const subscriberIds = await tx.subscriptions.activeSubscriberIds(realm.id, stream.id);
  const subscribers = new Set(subscriberIds);
  const seesAfter = metadataAudience(users, after, subscribers);
  if (CHANNEL_SETTINGS_GRANTING_METADATA_ACCESS.includes(name)) {
    const sawBefore = new Set(metadataAudience(users, stream, subscribers));
    announceStreamUpdate(ctx, tx, realm, stream, seesAfter.filter((id) => sawBefore.has(id)), name, groupSettingForApi(value));
    announceVisibilityChange(ctx, tx, realm, after, { users, subscriberIds, sawBefore, seesAfter });
  } else {
    announceStreamUpdate(ctx, tx, realm, stream, seesAfter, name, groupSettingForApi(value));
  }
  if (name === 'can_send_message_group') {
    const policy = streamPostPolicy(after);
    if (policy !== streamPostPolicy(stream)) {
      announceStreamUpdate(ctx, tx, realm, stream, seesAfter, 'stream_post_policy', policy);
      // The reference still sends the pre-2020 property for old mobile clients.
      announceStreamUpdate(ctx, tx, realm, stream, seesAfter, 'is_announcement_only', policy === 2);
    }
  }
  return after;
}
