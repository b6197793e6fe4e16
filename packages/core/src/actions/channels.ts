import { err, ok, type Result } from 'neverthrow';
import {
  canCreatePrivateChannels,
  canCreatePublicChannels,
  canCreateWebPublicChannels,
  channelGroup,
  hasContentAccess,
  hasMetadataAccess,
} from '../access/channel-rules.js';
import { accessStreamById, accessStreamForAdministration } from '../access/channels.js';
import { isAdmin, isOwner } from '../access/roles.js';
import { hasRealmPermission } from '../access/realm-rules.js';
import { groupSettingForApi } from '../access/system-groups.js';
import { type ApiError, badRequest, channelAlreadyExists, insufficientPermission, mustBeAdmin, mustBeOwner } from '../errors.js';
import { type Actor, userOperation } from '../operation.js';
import { DefaultStreamParams, StreamPathParams, UpdateStreamParams } from '../schemas/channels.js';
import type { Stream } from '../storage/types.js';
import { announceDefaultStreams } from '../channels/events.js';
import { changeChannelGroupSetting, checkProtectedHistoryTopics, planChannelGroupChanges } from '../channels/group-settings.js';
import { checkChannelName } from '../channels/records.js';
import { changeChannelProperty, checkFolder, parseRetentionDays } from '../channels/properties.js';
import { archiveChannel, changeDescription, changePrivacy, type Privacy, renameChannel, unarchiveChannel } from '../channels/changes.js';
import { transactionAs } from '../transaction.js';

type UpdateInput = (typeof UpdateStreamParams)['TYPE'];

/** The privacy a PATCH asks for, checked as update_stream_backend checks it. */
function proposedPrivacy(actor: Actor, stream: Stream, subscribed: boolean, isDefault: boolean, params: UpdateInput): Result<Privacy, ApiError> {
  const { user, realm } = actor;
  const inviteOnly = params.is_private ?? stream.inviteOnly;
  const isWebPublic = params.is_web_public ?? stream.isWebPublic;
  const history = params.history_public_to_subscribers ?? (params.is_private !== undefined ? !params.is_private : stream.historyPublicToSubscribers);
  const willBeDefault = params.is_default_stream ?? isDefault;
  if (isWebPublic && (!history || inviteOnly)) return err(badRequest('Invalid parameters'));
  if (!inviteOnly && !history) return err(badRequest('Invalid parameters'));
  if (inviteOnly && willBeDefault) return err(badRequest('A default channel cannot be private.'));
  if (params.is_private !== undefined) {
    if (!hasContentAccess(user, stream, subscribed)) return err(badRequest('Channel content access is required.'));
    if (params.is_private ? !canCreatePrivateChannels(user, realm) : !canCreatePublicChannels(user, realm)) return err(insufficientPermission());
  }
  if (params.is_web_public) {
    if (!realm.webPublicAccessEnabled) return err(badRequest('Web-public channels are not enabled.'));
    if (!canCreateWebPublicChannels(user, realm)) return err(insufficientPermission());
  }
  return ok({ inviteOnly, isWebPublic, historyPublicToSubscribers: history });
}

/**
 * PATCH /streams/{stream_id}: privacy, default status, retention (owners only), unarchiving,
 * topics policy (can_set_topics_policy_group), description, name, default push notifications
 * (FL 507), folder and the `can_*_group` settings ({new, old}), in the reference's order, all in
 * one transaction. Administrators and the channel's administrators (by default its creator) may.
 */
export const doUpdateStream = userOperation(UpdateStreamParams, async (ctx, requester: Actor, params) =>
  transactionAs(ctx, requester, async (tx, actor) => {
    const { realm, user } = actor;
    const access = await accessStreamForAdministration(tx, user, params.stream_id);
    if (access.isErr()) return err(access.error);
    let stream = access.value.stream;
    const defaults = await tx.defaultStreams.list(realm.id);
    const privacy = proposedPrivacy(actor, stream, access.value.subscribed, defaults.includes(stream.id), params);
    if (privacy.isErr()) return err(privacy.error);
    if (params.history_public_to_subscribers !== undefined || params.is_private !== undefined || params.can_create_topic_group !== undefined) {
      const topics = params.can_create_topic_group?.new ?? groupSettingForApi(channelGroup(stream, 'can_create_topic_group'));
      const allowed = checkProtectedHistoryTopics(privacy.value.historyPublicToSubscribers, topics);
      if (allowed.isErr()) return err(allowed.error);
    }
    if (params.is_private !== undefined || params.is_web_public !== undefined || params.history_public_to_subscribers !== undefined) {
      stream = await changePrivacy(ctx, tx, realm, stream, privacy.value);
    }
    if (params.is_default_stream !== undefined) {
      if (!isAdmin(user)) return err(mustBeAdmin());
      if (params.is_default_stream !== defaults.includes(stream.id)) {
        await (params.is_default_stream ? tx.defaultStreams.add(realm.id, stream.id) : tx.defaultStreams.remove(realm.id, stream.id));
        await announceDefaultStreams(ctx, tx, realm);
      }
    }
    if (params.message_retention_days !== undefined) {
      if (!isOwner(user)) return err(mustBeOwner());
      const days = parseRetentionDays(params.message_retention_days);
      if (days.isErr()) return err(days.error);
      stream = await changeChannelProperty(ctx, tx, realm, stream, 'message_retention_days', days.value);
    }
    if (params.is_archived === false) {
      const unarchived = await unarchiveChannel(ctx, tx, realm, stream);
      if (unarchived.isErr()) return err(unarchived.error);
      stream = unarchived.value;
    }
    if (params.topics_policy !== undefined) {
      if (!hasRealmPermission(user, realm, 'can_set_topics_policy_group')) return err(insufficientPermission());
      stream = await changeChannelProperty(ctx, tx, realm, stream, 'topics_policy', params.topics_policy);
    }
    if (params.description !== undefined) stream = await changeDescription(ctx, tx, realm, stream, params.description);
    if (params.new_name !== undefined) {
      const name = params.new_name.trim();
      if (name === stream.name) return err(badRequest('Channel already has that name.'));
      if (name.toLowerCase() !== stream.name.toLowerCase()) {
        const checked = checkChannelName(name);
        if (checked.isErr()) return err(checked.error);
        const holder = await tx.streams.byName(realm.id, name);
        if (holder) {
          const row = await tx.subscriptions.get(realm.id, user.id, holder.id);
          return err(hasMetadataAccess(user, holder, row?.active === true) ? channelAlreadyExists(name) : insufficientPermission());
        }
      }
      stream = await renameChannel(ctx, tx, realm, stream, name);
    }
    if (params.default_push_notifications !== undefined) {
      stream = await changeChannelProperty(ctx, tx, realm, stream, 'default_push_notifications', params.default_push_notifications);
    }
    if (params.folder_id !== undefined) {
      const folderId = await checkFolder(tx, realm, params.folder_id);
      if (folderId.isErr()) return err(folderId.error);
      stream = await changeChannelProperty(ctx, tx, realm, stream, 'folder_id', folderId.value);
    }
    const groupChanges = await planChannelGroupChanges(tx, actor, stream, access.value.subscribed, params);
    if (groupChanges.isErr()) return err(groupChanges.error);
    for (const change of groupChanges.value) stream = await changeChannelGroupSetting(ctx, tx, realm, stream, change);
    return ok({});
  }),
);

/** DELETE /streams/{stream_id}: archives the channel (administrators and the channel's administrators). */
export const doArchiveStream = userOperation(StreamPathParams, async (ctx, requester: Actor, params) =>
  transactionAs(ctx, requester, async (tx, actor) => {
    const access = await accessStreamForAdministration(tx, actor.user, params.stream_id);
    if (access.isErr()) return err(access.error);
    const archived = await archiveChannel(ctx, tx, actor.realm, access.value.stream);
    return archived.map(() => ({}));
  }),
);

/** POST /default_streams: administrators add a public channel to the channels new users join. */
export const doAddDefaultStream = userOperation(DefaultStreamParams, async (ctx, requester: Actor, params) =>
  transactionAs(ctx, requester, async (tx, actor) => {
    if (!isAdmin(actor.user)) return err(mustBeAdmin());
    const access = await accessStreamById(tx, actor.user, params.stream_id);
    if (access.isErr()) return err(access.error);
    if (access.value.stream.inviteOnly) return err(badRequest('Private channels cannot be made default.'));
    if (!(await tx.defaultStreams.list(actor.realm.id)).includes(params.stream_id)) {
      await tx.defaultStreams.add(actor.realm.id, params.stream_id);
      await announceDefaultStreams(ctx, tx, actor.realm);
    }
    return ok({});
  }),
);

/** DELETE /default_streams: administrators remove a channel from the default channels. */
export const doRemoveDefaultStream = userOperation(DefaultStreamParams, async (ctx, requester: Actor, params) =>
  transactionAs(ctx, requester, async (tx, actor) => {
    if (!isAdmin(actor.user)) return err(mustBeAdmin());
    const access = await accessStreamById(tx, actor.user, params.stream_id, { metadataOnly: true });
    if (access.isErr()) return err(access.error);
    await tx.defaultStreams.remove(actor.realm.id, params.stream_id);
    await announceDefaultStreams(ctx, tx, actor.realm);
    return ok({});
  }),
);
