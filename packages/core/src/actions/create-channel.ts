import { err, ok } from 'neverthrow';
import { checkChannelCreation } from '../access/channel-creation.js';
import { activeUsers } from '../access/channels.js';
import { resolvePrincipals } from '../access/principals.js';
import { isGuest } from '../access/roles.js';
import { channelAlreadyExistsConflict, notAllowedForGuests } from '../errors.js';
import { type Actor, userOperation } from '../operation.js';
import { CreateChannelParams } from '../schemas/channels.js';
import { announceNewChannels } from '../system-bots/new-channels.js';
import { announceDefaultStreams } from '../channels/events.js';
import { parseCreationGroupSettings } from '../channels/group-settings.js';
import { checkFolder, parseRetentionDays } from '../channels/properties.js';
import { checkChannelName, creationSpec, insertChannel } from '../channels/records.js';
import { bulkAddSubscriptions } from '../channels/subscription-records.js';
import { transactionAs } from '../transaction.js';

/**
 * POST /channels/create (FL 417): creates one channel with the creation settings of
 * POST /users/me/subscriptions and subscribes exactly `subscribers` (the creator only if
 * listed). An existing name, in any case, is CHANNEL_ALREADY_EXISTS; guests may not create.
 * Answers the new channel's ID.
 */
export const doCreateChannel = userOperation(CreateChannelParams, async (ctx, requester: Actor, params) => {
  if (isGuest(requester.user)) return err(notAllowedForGuests());
  const name = checkChannelName(params.name.trim());
  if (name.isErr()) return err(name.error);
  const retentionDays = parseRetentionDays(params.message_retention_days ?? 'realm_default');
  if (retentionDays.isErr()) return err(retentionDays.error);

  return transactionAs(ctx, requester, async (tx, actor) => {
    const { realm, user } = actor;
    if (isGuest(user)) return err(notAllowedForGuests());
    const existing = await tx.streams.byName(realm.id, name.value);
    if (existing) return err(channelAlreadyExistsConflict(existing.name));
    const folderId = await checkFolder(tx, realm, params.folder_id ?? null);
    if (folderId.isErr()) return err(folderId.error);
    const historyPublic = params.invite_only ? (params.history_public_to_subscribers ?? false) : true;
    const groupSettings = await parseCreationGroupSettings(tx, actor, params, historyPublic);
    if (groupSettings.isErr()) return err(groupSettings.error);
    const allowed = checkChannelCreation(actor, params, retentionDays.value);
    if (allowed.isErr()) return err(allowed.error);
    const subscribers = await resolvePrincipals(tx, realm, user, params.subscribers);
    if (subscribers.isErr()) return err(subscribers.error);

    const spec = creationSpec(name.value, params.description, params, {
      messageRetentionDays: retentionDays.value,
      folderId: folderId.value,
      groupSettings: groupSettings.value,
    });
    const stream = await insertChannel(ctx, tx, realm, user, spec, await activeUsers(tx, realm.id));
    if (params.is_default_stream) {
      await tx.defaultStreams.add(realm.id, stream.id);
      await announceDefaultStreams(ctx, tx, realm);
    }
    await bulkAddSubscriptions(ctx, tx, realm, [stream], subscribers.value);
    if (params.announce) {
      const announced = await announceNewChannels(ctx, tx, realm, user, [stream]);
      if (announced.isErr()) return err(announced.error);
    }
    return ok({ id: stream.id });
  });
});
