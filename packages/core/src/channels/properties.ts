/**
 * The channel settings beyond privacy, name and description: its folder, message retention,
 * topics policy and default push notifications (FL 507). Their parameter rules (the reference's parse_message_retention_days,
 * get_channel_folder_by_id) are shared by channel creation and PATCH /streams/{id}; each change
 * is a stream/update of that property to everyone who may see the channel.
 */
import { err, ok, type Result } from 'neverthrow';
import { activeUsers, metadataAudience } from '../access/channels.js';
import type { Ctx } from '../context.js';
import { ApiError, badRequest } from '../errors.js';
import type { Realm, Stream, StreamPatch, Tx } from '../storage/types.js';
import { announceStreamUpdate } from './events.js';

/**
 * message_retention_days as stored: a number of days ≥ 1, -1 for "unlimited", null for
 * "realm_default". Anything else is the reference's RequestVariableConversionError.
 */
export function parseRetentionDays(value: number | string): Result<number | null, ApiError> {
  if (value === 'unlimited') return ok(-1);
  if (value === 'realm_default') return ok(null);
  if (typeof value === 'number' && value >= 1) return ok(value);
  return err(
    new ApiError('REQUEST_VARIABLE_INVALID', `Bad value for 'message_retention_days': ${value}`, {
      var_name: 'message_retention_days',
      bad_value: value,
    }),
  );
}

/** A folder a channel may be put in: one of the realm's, not archived. null (no folder) passes. */
export async function checkFolder(tx: Tx, realm: Realm, folderId: number | null): Promise<Result<number | null, ApiError>> {
  if (folderId === null) return ok(null);
  const folder = await tx.channelFolders.byId(realm.id, folderId);
  return folder && !folder.isArchived ? ok(folder.id) : err(badRequest('Invalid channel folder ID'));
}

type Property = 'folder_id' | 'message_retention_days' | 'topics_policy' | 'default_push_notifications';
const FIELDS = {
  folder_id: 'folderId',
  message_retention_days: 'messageRetentionDays',
  topics_policy: 'topicsPolicy',
  default_push_notifications: 'defaultPushNotifications',
} as const;

/**
 * Sets one of these properties and announces it; a value equal to the stored one writes and
 * announces nothing (the reference announces even those).
 */
export async function changeChannelProperty<P extends Property>(
  ctx: Ctx,
  tx: Tx,
  realm: Realm,
  stream: Stream,
  property: P,
  value: Stream[(typeof FIELDS)[P]],
): Promise<Stream> {
  const field = FIELDS[property];
  if (stream[field] === value) return stream;
  const patch: StreamPatch = { [field]: value };
  await tx.streams.update(realm.id, stream.id, patch);
  const after: Stream = { ...stream, ...patch };
  const audience = metadataAudience(await activeUsers(tx, realm.id), after, new Set(await tx.subscriptions.activeSubscriberIds(realm.id, stream.id)));
  announceStreamUpdate(ctx, tx, realm, stream, audience, property, value);
  return after;
}
