/**
 * Subscribing and unsubscribing users in bulk, and everything each change announces
 * (bulk_add_subscriptions, bulk_remove_subscriptions). Runs inside the caller's transaction.
 */
import { hasMetadataAccess } from '../access/channel-rules.js';
import { activeUsers, metadataAudience, subscriberAudience } from '../access/channels.js';
import type { Ctx } from '../context.js';
import { formatSubscription } from '../format/channel.js';
import type { Realm, Stream, Subscription, Tx, User } from '../storage/types.js';
import { announceAccessGained, announceAccessLost, peersBeforeChange } from '../events/user-access-changes.js';
import {
  announcePeers,
  announceStreamCreated,
  announceStreamsDeleted,
  announceSubscriptionsAdded,
  announceSubscriptionsRemoved,
  type PeerChange,
} from './events.js';

/** The reference's palette for new subscriptions (zerver/lib/stream_color.py). */
export const CHANNEL_COLORS = [
  '#76ce90', '#fae589', '#a6c7e5', '#e79ab5', '#bfd56f', '#f4ae55', '#b0a5fd', '#addfe5',
  '#f5ce6e', '#c2726a', '#94c849', '#bd86e5', '#ee7e4a', '#a6dcbf', '#95a5fd', '#53a063',
  '#9987e1', '#e4523d', '#c2c2c2', '#4f8de4', '#c6a8ad', '#e7cc4d', '#c8bebf', '#a47462',
];

/**
 * pick_colors: requested colours first, then the palette's colours the user does not use yet,
 * in channel-ID order; once the palette is used up, a colour chosen by channel ID.
 */
export function pickColors(used: Iterable<string>, requested: ReadonlyMap<number, string>, streamIds: readonly number[]): Map<number, string> {
  const taken = new Set(used);
  const result = new Map<number, string>();
  const others: number[] = [];
  for (const id of [...streamIds].sort((a, b) => a - b)) {
    const color = requested.get(id);
    if (color === undefined) others.push(id);
    else {
      result.set(id, color);
      taken.add(color);
    }
  }
  const available = CHANNEL_COLORS.filter((c) => !taken.has(c));
  for (const [i, id] of others.entries()) result.set(id, available[i] ?? CHANNEL_COLORS[id % CHANNEL_COLORS.length]!);
  return result;
}

/** One user's membership of one channel, as a change reports it. */
export interface Membership {
  user: User;
  stream: Stream;
}

export interface AddOptions {
  /** Colours requested for the channels (by channel ID), for every user subscribed. */
  colors?: ReadonlyMap<number, string>;
  /** The users are being created: their own snapshot will carry the subscriptions, so only peers hear of them. */
  fromUserCreation?: boolean;
}

/**
 * Subscribes every user to every channel. A user's earlier row is reactivated with its personal
 * settings; new rows get a colour. Announces, after commit: stream/create to users who could not
 * see a channel before, subscription/add to each subscribed user, peer_add to those who may see
 * the subscribers.
 */
export async function bulkAddSubscriptions(
  ctx: Ctx,
  tx: Tx,
  realm: Realm,
  streams: readonly Stream[],
  users: readonly User[],
  options: AddOptions = {},
): Promise<{ subscribed: Membership[]; alreadySubscribed: Membership[] }> {
  const subscribed: Membership[] = [];
  const alreadySubscribed: Membership[] = [];
  const added = new Map<number, Subscription[]>();
  // A new user's record is announced with their creation, to whoever may access them by then.
  const peersBefore = options.fromUserCreation ? null : await peersBeforeChange(tx, realm, users);
  for (const user of users) {
    const rows = new Map((await tx.subscriptions.forUser(realm.id, user.id)).map((row) => [row.streamId, row]));
    const fresh = streams.filter((s) => !rows.has(s.id)).map((s) => s.id);
    const colors = pickColors([...rows.values()].filter((r) => r.active).map((r) => r.color), options.colors ?? new Map(), fresh);
    for (const stream of streams) {
      const row = rows.get(stream.id);
      if (row?.active) {
        alreadySubscribed.push({ user, stream });
        continue;
      }
      const next: Subscription = row
        ? { ...row, active: true }
        : {
            realmId: realm.id,
            userId: user.id,
            streamId: stream.id,
            active: true,
            color: colors.get(stream.id)!,
            isMuted: false,
            pinToTop: false,
            desktopNotifications: null,
            audibleNotifications: null,
            pushNotifications: null,
            emailNotifications: null,
            wildcardMentionsNotify: null,
          };
      await tx.subscriptions.upsert(next);
      subscribed.push({ user, stream });
      added.set(user.id, [...(added.get(user.id) ?? []), next]);
    }
  }
  if (subscribed.length === 0) return { subscribed, alreadySubscribed };

  const changedStreams = streams.filter((s) => subscribed.some((m) => m.stream.id === s.id));
  const after = await tx.subscriptions.subscribersByStream(realm.id, changedStreams.map((s) => s.id));
  const audience = await activeUsers(tx, realm.id);
  const streamById = new Map(changedStreams.map((s) => [s.id, s]));

  if (!options.fromUserCreation) {
    // Users who could not see a channel until now need it before its subscription/add.
    for (const stream of changedStreams) {
      const newcomers = subscribed
        .filter((m) => m.stream.id === stream.id && !hasMetadataAccess(m.user, stream, false))
        .map((m) => m.user.id);
      if (newcomers.length > 0) announceStreamCreated(ctx, tx, realm, stream, after.get(stream.id)!.length, newcomers);
    }
    for (const user of users) {
      const rows = added.get(user.id);
      if (!rows) continue;
      const objects = rows.map((row) => {
        const stream = streamById.get(row.streamId)!;
        const subscribers = after.get(stream.id)!;
        return { ...formatSubscription(stream, row, subscribers.length), subscribers: [...subscribers] };
      });
      announceSubscriptionsAdded(ctx, tx, realm, user, objects);
    }
  }

  const peers: PeerChange[] = changedStreams.map((stream) => {
    const members = new Set(after.get(stream.id));
    return {
      streamId: stream.id,
      userIds: subscribed.filter((m) => m.stream.id === stream.id).map((m) => m.user.id),
      audience: subscriberAudience(audience, stream, members),
    };
  });
  announcePeers(ctx, tx, realm, 'peer_add', peers);
  await announceAccessGained(ctx, tx, realm, streamIdsByUser(subscribed), peersBefore);
  return { subscribed, alreadySubscribed };
}

/**
 * Unsubscribes every user from every channel they are subscribed to (rows stay, inactive).
 * Announces subscription/remove to each, stream/delete to those who can no longer see a private
 * channel, and peer_remove to those who may see the subscribers.
 */
export async function bulkRemoveSubscriptions(
  ctx: Ctx,
  tx: Tx,
  realm: Realm,
  streams: readonly Stream[],
  users: readonly User[],
): Promise<{ removed: Membership[]; notRemoved: Membership[] }> {
  const removed: Membership[] = [];
  const notRemoved: Membership[] = [];
  for (const user of users) {
    for (const stream of streams) {
      const row = await tx.subscriptions.get(realm.id, user.id, stream.id);
      if (!row?.active) {
        notRemoved.push({ user, stream });
        continue;
      }
      await tx.subscriptions.update(realm.id, user.id, stream.id, { active: false });
      removed.push({ user, stream });
    }
  }
  if (removed.length === 0) return { removed, notRemoved };

  for (const user of users) {
    const left = removed.filter((m) => m.user.id === user.id).map((m) => m.stream);
    if (left.length === 0) continue;
    announceSubscriptionsRemoved(ctx, tx, realm, user, left);
    const lost = left.filter((stream) => !hasMetadataAccess(user, stream, false)).map((s) => s.id);
    if (lost.length > 0) announceStreamsDeleted(ctx, tx, realm, lost, [user.id]);
  }

  const changedStreams = streams.filter((s) => removed.some((m) => m.stream.id === s.id));
  const after = await tx.subscriptions.subscribersByStream(realm.id, changedStreams.map((s) => s.id));
  const audience = await activeUsers(tx, realm.id);
  announcePeers(
    ctx,
    tx,
    realm,
    'peer_remove',
    changedStreams.map((stream) => ({
      streamId: stream.id,
      userIds: removed.filter((m) => m.stream.id === stream.id).map((m) => m.user.id),
      audience: subscriberAudience(audience, stream, new Set(after.get(stream.id))),
    })),
  );
  await announceAccessLost(ctx, tx, realm, streamIdsByUser(removed));
  return { removed, notRemoved };
}

/** The audience of a channel's stream events, now. */
export async function streamAudience(tx: Tx, realm: Realm, stream: Stream, users?: readonly User[]): Promise<number[]> {
  const subscribers = new Set(await tx.subscriptions.activeSubscriberIds(realm.id, stream.id));
  return metadataAudience(users ?? (await activeUsers(tx, realm.id)), stream, subscribers);
}

/** The channel IDs of `memberships`, by user. */
function streamIdsByUser(memberships: readonly Membership[]): Map<User, number[]> {
  const map = new Map<User, number[]>();
  for (const { user, stream } of memberships) map.set(user, [...(map.get(user) ?? []), stream.id]);
  return map;
}
