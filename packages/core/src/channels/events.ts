/**
 * stream, subscription and default_streams events (SHAPES.md 4.15, 4.16): their bodies, and
 * the per-queue rules of the `archived_channels` client capability. Every channel change is
 * announced through these, after commit, to the users who may see the channel.
 */
import type { Ctx } from '../context.js';
import { publishOnCommit } from '../events/publish.js';
import type { Tailoring } from '../events/bus.js';
import type { ChannelRecord, SubscriptionRecord } from '../events/union/channels.js';
import { formatStream, withNotificationDefaults } from '../format/channel.js';
import type { Realm, Stream, Tx, User } from '../storage/types.js';
import { isGuest } from '../access/roles.js';

/**
 * Clients with `archived_channels` learn of archiving through stream/update is_archived (the
 * `stream` rule of events/type-rules.ts); the others through stream/delete (and of
 * unarchiving through stream/create), published for them only.
 */
const FOR_CLIENTS_WITHOUT_ARCHIVED_CHANNELS: Tailoring = { onlyIf: { capability: 'archived_channels', declared: false } };

/** stream/create with the channel objects, to `userIds`. */
export function announceStreamCreated(
  ctx: Ctx,
  tx: Tx,
  realm: Realm,
  stream: Stream,
  subscriberCount: number,
  userIds: readonly number[],
  options: { forUnarchiving?: boolean } = {},
): void {
  const streams: ChannelRecord[] = [formatStream(stream, subscriberCount)];
  const tailoring = options.forUnarchiving ? { tailoring: FOR_CLIENTS_WITHOUT_ARCHIVED_CHANNELS } : {};
  publishOnCommit(ctx, tx, { realmId: realm.id, userIds, event: { type: 'stream', op: 'create', streams }, ...tailoring });
}

/** stream/delete (`streams` is deprecated since FL 343 but still sent). */
export function announceStreamsDeleted(
  ctx: Ctx,
  tx: Tx,
  realm: Realm,
  streamIds: readonly number[],
  userIds: readonly number[],
  options: { forArchiving?: boolean } = {},
): void {
  const streams = streamIds.map((id) => ({ stream_id: id }));
  const tailoring = options.forArchiving ? { tailoring: FOR_CLIENTS_WITHOUT_ARCHIVED_CHANNELS } : {};
  publishOnCommit(ctx, tx, { realmId: realm.id, userIds, event: { type: 'stream', op: 'delete', streams, stream_ids: [...streamIds] }, ...tailoring });
}

/** stream/update of one property; `name` is the channel's name before the change. */
export function announceStreamUpdate(
  ctx: Ctx,
  tx: Tx,
  realm: Realm,
  stream: Pick<Stream, 'id' | 'name'>,
  userIds: readonly number[],
  property: string,
  value: unknown,
  extra: Record<string, unknown> = {},
): void {
  publishOnCommit(ctx, tx, {
    realmId: realm.id,
    userIds,
    event: { type: 'stream', op: 'update', stream_id: stream.id, name: stream.name, property, value, ...extra },
  });
}

/**
 * subscription/add to the subscribed user, with their full subscription objects. Null
 * notification settings reach clients without `notification_settings_null` as the user's defaults.
 */
export function announceSubscriptionsAdded(ctx: Ctx, tx: Tx, realm: Realm, user: User, subscriptions: SubscriptionRecord[]): void {
  const withDefaults = subscriptions.map((sub) => withNotificationDefaults(user, sub));
  publishOnCommit(ctx, tx, {
    realmId: realm.id,
    userIds: [user.id],
    event: { type: 'subscription', op: 'add', subscriptions },
    tailoring: {
      byCapability: { capability: 'notification_settings_null', undeclared: { type: 'subscription', op: 'add', subscriptions: withDefaults } },
    },
  });
}

/** subscription/remove to the unsubscribed user. */
export function announceSubscriptionsRemoved(ctx: Ctx, tx: Tx, realm: Realm, user: User, streams: readonly Stream[]): void {
  publishOnCommit(ctx, tx, {
    realmId: realm.id,
    userIds: [user.id],
    event: { type: 'subscription', op: 'remove', subscriptions: streams.map((s) => ({ name: s.name, stream_id: s.id })) },
  });
}

/** subscription/update of one personal property, to the subscriber. */
export function announceSubscriptionUpdate(ctx: Ctx, tx: Tx, realm: Realm, user: User, streamId: number, property: string, value: unknown): void {
  publishOnCommit(ctx, tx, {
    realmId: realm.id,
    userIds: [user.id],
    event: { type: 'subscription', op: 'update', stream_id: streamId, property, value },
  });
}

/** One peer change: these users joined or left this channel; `audience` may see its subscribers. */
export interface PeerChange {
  streamId: number;
  userIds: readonly number[];
  audience: readonly number[];
}

/**
 * subscription/peer_add or peer_remove. Channels whose changed users and audience are the same
 * share one event, as in the reference. A user never hears of their own change (their
 * subscription/add or remove says it). A subscribed user already learns the others joining with
 * them from their subscription/add; but users unsubscribed together do hear of each other
 * through peer_remove, or the subscriber lists they keep would go stale (the reference omits it).
 */
export function announcePeers(ctx: Ctx, tx: Tx, realm: Realm, op: 'peer_add' | 'peer_remove', changes: readonly PeerChange[]): void {
  const batches = new Map<string, { streamIds: number[]; userIds: number[]; audience: number[] }>();
  for (const change of changes) {
    const changed = [...new Set(change.userIds)].sort((a, b) => a - b);
    // The users each recipient hears of, and who hears of which users.
    const groups = new Map<string, { userIds: number[]; audience: number[] }>();
    for (const recipient of new Set(change.audience)) {
      const userIds = !changed.includes(recipient) ? changed : op === 'peer_remove' ? changed.filter((id) => id !== recipient) : [];
      if (userIds.length === 0) continue;
      const key = userIds.join(',');
      const group = groups.get(key);
      if (group) group.audience.push(recipient);
      else groups.set(key, { userIds, audience: [recipient] });
    }
    for (const { userIds, audience } of groups.values()) {
      audience.sort((a, b) => a - b);
      const key = `${userIds.join(',')}|${audience.join(',')}`;
      const batch = batches.get(key);
      if (batch) batch.streamIds.push(change.streamId);
      else batches.set(key, { streamIds: [change.streamId], userIds, audience });
    }
  }
  for (const { streamIds, userIds, audience } of batches.values()) {
    publishOnCommit(ctx, tx, {
      realmId: realm.id,
      userIds: audience,
      event: { type: 'subscription', op, stream_ids: streamIds.sort((a, b) => a - b), user_ids: userIds },
    });
  }
}

/** default_streams with the realm's default channel IDs, to every active member (not guests). */
export async function announceDefaultStreams(ctx: Ctx, tx: Tx, realm: Realm): Promise<void> {
  const userIds = (await tx.users.list(realm.id)).filter((u) => u.isActive && !isGuest(u)).map((u) => u.id);
  publishOnCommit(ctx, tx, {
    realmId: realm.id,
    userIds,
    event: { type: 'default_streams', default_streams: await tx.defaultStreams.list(realm.id) },
  });
}
