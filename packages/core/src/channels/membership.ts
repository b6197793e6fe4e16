/**
 * What a change to a user means for channels: a new user joins the default channels; a role
 * change can show or hide channels (an administrator sees every private channel, a guest only
 * their own); a deactivated user leaves every subscriber list and a reactivated one comes back.
 */
import { hasMetadataAccess } from '../access/channel-rules.js';
import { activeUsers, subscriberAudience } from '../access/channels.js';
import type { Ctx } from '../context.js';
import type { Realm, Tx, User } from '../storage/types.js';
import { announcePeers, announceStreamCreated, announceStreamsDeleted, type PeerChange } from './events.js';
import { bulkAddSubscriptions } from './subscription-records.js';

/**
 * Subscribes a new human user to the realm's default channels. Their own snapshot will carry
 * the subscriptions, so only the channels' peers hear of it (from_user_creation).
 */
export async function joinDefaultChannels(ctx: Ctx, tx: Tx, realm: Realm, user: User): Promise<void> {
  if (user.isBot) return;
  await joinChannelsOnCreation(ctx, tx, realm, user, await tx.defaultStreams.list(realm.id));
}

/**
 * Subscribes a new user to the given channels (an invitation's), skipping IDs that are not
 * unarchived channels of the realm (any more); announced as for the default channels.
 */
export async function joinChannelsOnCreation(ctx: Ctx, tx: Tx, realm: Realm, user: User, ids: readonly number[]): Promise<void> {
  if (ids.length === 0) return;
  const streams = (await tx.streams.list(realm.id, [...new Set(ids)])).filter((s) => !s.isArchived);
  await bulkAddSubscriptions(ctx, tx, realm, streams, [user], { fromUserCreation: true });
}

/**
 * A role change: stream/create for the (unarchived) channels the user sees only now, with no
 * subscribers and then peer_add of them, and stream/delete for those they no longer see.
 */
export async function announceRoleChannels(ctx: Ctx, tx: Tx, realm: Realm, before: User, after: User): Promise<void> {
  if (!after.isActive) return;
  const mine = new Set((await tx.subscriptions.forUser(realm.id, after.id)).filter((r) => r.active).map((r) => r.streamId));
  const streams = (await tx.streams.list(realm.id)).filter((s) => !s.isArchived);
  const gained = streams.filter((s) => !hasMetadataAccess(before, s, mine.has(s.id)) && hasMetadataAccess(after, s, mine.has(s.id)));
  const lost = streams.filter((s) => hasMetadataAccess(before, s, mine.has(s.id)) && !hasMetadataAccess(after, s, mine.has(s.id)));
  if (gained.length > 0) {
    const subscribers = await tx.subscriptions.subscribersByStream(realm.id, gained.map((s) => s.id));
    for (const stream of gained) announceStreamCreated(ctx, tx, realm, stream, 0, [after.id]);
    announcePeers(
      ctx,
      tx,
      realm,
      'peer_add',
      gained.map((s) => ({ streamId: s.id, userIds: subscribers.get(s.id)!, audience: [after.id] })),
    );
  }
  if (lost.length > 0) announceStreamsDeleted(ctx, tx, realm, lost.map((s) => s.id), [after.id]);
}

/**
 * A deactivation or reactivation: peer_remove or peer_add of the user for every channel they
 * are subscribed to (archived ones too, FL 428), to those who may see its subscribers.
 */
export async function announceActivationPeers(ctx: Ctx, tx: Tx, realm: Realm, user: User, active: boolean): Promise<void> {
  const rows = (await tx.subscriptions.forUser(realm.id, user.id)).filter((r) => r.active);
  if (rows.length === 0) return;
  const streams = await tx.streams.list(realm.id, rows.map((r) => r.streamId));
  const subscribers = await tx.subscriptions.subscribersByStream(realm.id, streams.map((s) => s.id));
  const audience = await activeUsers(tx, realm.id);
  const changes: PeerChange[] = streams.map((stream) => ({
    streamId: stream.id,
    userIds: [user.id],
    audience: subscriberAudience(audience, stream, new Set(subscribers.get(stream.id))).filter((id) => id !== user.id),
  }));
  announcePeers(ctx, tx, realm, active ? 'peer_add' : 'peer_remove', changes);
}
