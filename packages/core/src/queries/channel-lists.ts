/**
 * The channel lists of one user, shared by GET /users/me/subscriptions, GET /streams and the
 * register snapshot (gather_subscriptions_helper, get_streams_for_user).
 */
import { canSeeSubscribers, hasContentAccess, hasMetadataAccess } from '../access/channel-rules.js';
import { CHANNEL_COLORS } from '../channels/subscription-records.js';
import { formatStream, formatSubscription } from '../format/channel.js';
import type { Realm, Stream, Subscription, Tx, User } from '../storage/types.js';
import { isGuest } from '../access/roles.js';

/**
 * From this many subscribers on, `include_subscribers=partial` sends `partial_subscribers`
 * (MIN_PARTIAL_SUBSCRIBERS_CHANNEL_SIZE). No activity is recorded, so every subscriber counts
 * as recently active and the partial list is the whole list.
 */
export const PARTIAL_SUBSCRIBERS_THRESHOLD = 1000;

export type IncludeSubscribers = boolean | 'partial';

/** By name, in code-unit order (the reference sorts by name). */
const byName = (a: { name?: unknown }, b: { name?: unknown }) => {
  const [x, y] = [String(a.name), String(b.name)];
  return x < y ? -1 : x > y ? 1 : 0;
};

/** Adds `subscribers` (or `partial_subscribers`) to a channel object when asked for. */
function withSubscribers(object: Record<string, unknown>, subscribers: readonly number[], visible: boolean, include: IncludeSubscribers) {
  if (include === false) return object;
  const ids = visible ? [...subscribers] : [];
  const key = include === 'partial' && ids.length >= PARTIAL_SUBSCRIBERS_THRESHOLD ? 'partial_subscribers' : 'subscribers';
  return { ...object, [key]: ids };
}

export interface SubscriptionLists {
  subscriptions: Record<string, unknown>[];
  unsubscribed: Record<string, unknown>[];
  never_subscribed: Record<string, unknown>[];
}

/**
 * The user's subscriptions, the channels they left and can still see, and the channels they
 * can see and never joined, each sorted by name. Archived channels only when asked for.
 */
export async function gatherSubscriptions(
  tx: Tx,
  realm: Realm,
  user: User,
  options: { includeSubscribers: IncludeSubscribers; includeArchived: boolean },
): Promise<SubscriptionLists> {
  const streams = (await tx.streams.list(realm.id)).filter((s) => options.includeArchived || !s.isArchived);
  const rows = new Map((await tx.subscriptions.forUser(realm.id, user.id)).map((row) => [row.streamId, row]));
  const subscribers = await tx.subscriptions.subscribersByStream(realm.id, streams.map((s) => s.id));
  const lists: SubscriptionLists = { subscriptions: [], unsubscribed: [], never_subscribed: [] };
  for (const stream of streams) {
    const row = rows.get(stream.id);
    const subscribed = row?.active === true;
    if (!subscribed && !hasMetadataAccess(user, stream, false)) continue;
    const ids = subscribers.get(stream.id)!;
    const object = row ? formatSubscription(stream, row, ids.length) : formatStream(stream, ids.length);
    const list = subscribed ? lists.subscriptions : row ? lists.unsubscribed : lists.never_subscribed;
    list.push(withSubscribers(object, ids, canSeeSubscribers(user, stream, subscribed), options.includeSubscribers));
  }
  lists.subscriptions.sort(byName);
  lists.unsubscribed.sort(byName);
  lists.never_subscribed.sort(byName);
  return lists;
}

/**
 * What a spectator's snapshot holds (get_web_public_subs): the web-public channels as if
 * subscribed, with a new subscriber's personal settings and colours in palette order.
 */
export async function spectatorSubscriptions(tx: Tx, realm: Realm): Promise<SubscriptionLists> {
  const streams = (await webPublicChannels(tx, realm)).sort(byName);
  const counts = await tx.subscriptions.subscribersByStream(realm.id, streams.map((s) => s.id));
  const subscriptions = streams.map((stream, i) => {
    const row: Subscription = {
      realmId: realm.id,
      userId: 0,
      streamId: stream.id,
      active: true,
      color: CHANNEL_COLORS[i % CHANNEL_COLORS.length]!,
      isMuted: false,
      pinToTop: false,
      desktopNotifications: true,
      audibleNotifications: true,
      pushNotifications: true,
      emailNotifications: true,
      wildcardMentionsNotify: true,
    };
    return formatSubscription(stream, row, counts.get(stream.id)!.length);
  });
  return { subscriptions, unsubscribed: [], never_subscribed: [] };
}

/** The realm's web-public channels that are not archived. */
export async function webPublicChannels(tx: Tx, realm: Realm): Promise<Stream[]> {
  return (await tx.streams.list(realm.id)).filter((s) => s.isWebPublic && !s.isArchived);
}

export interface StreamFilter {
  includePublic: boolean;
  includeWebPublic: boolean;
  includeSubscribed: boolean;
  excludeArchived: boolean;
  includeAll: boolean;
  includeOwnerSubscribed: boolean;
  includeCanAccessContent: boolean;
}

/** get_streams_for_user: the channels the flags select, among those the user may see. */
export async function streamsForUser(tx: Tx, realm: Realm, user: User, filter: StreamFilter): Promise<Stream[]> {
  const streams = (await tx.streams.list(realm.id)).filter((s) => !filter.excludeArchived || !s.isArchived);
  const mine = new Set((await tx.subscriptions.forUser(realm.id, user.id)).filter((r) => r.active).map((r) => r.streamId));
  const owner = user.isBot && user.botOwnerId !== null && filter.includeOwnerSubscribed ? await tx.users.byId(realm.id, user.botOwnerId) : undefined;
  const ownerStreams = owner
    ? new Set((await tx.subscriptions.forUser(realm.id, owner.id)).filter((r) => r.active).map((r) => r.streamId))
    : new Set<number>();
  const includePublic = filter.includePublic && !isGuest(user);
  return streams.filter((stream) => {
    const subscribed = mine.has(stream.id);
    if (filter.includeAll) return hasMetadataAccess(user, stream, subscribed);
    if (filter.includeCanAccessContent && hasContentAccess(user, stream, subscribed)) return true;
    if (!filter.includeCanAccessContent) {
      if (filter.includeSubscribed && subscribed) return true;
      if (includePublic && !stream.inviteOnly) return true;
      if (filter.includeWebPublic && stream.isWebPublic) return true;
    }
    return ownerStreams.has(stream.id);
  });
}

/** Channel objects sorted by name, with subscriber counts. */
export async function formatStreams(tx: Tx, realm: Realm, streams: readonly Stream[]): Promise<Record<string, unknown>[]> {
  const counts = await tx.subscriptions.subscribersByStream(realm.id, streams.map((s) => s.id));
  return streams.map((stream) => formatStream(stream, counts.get(stream.id)!.length)).sort(byName);
}
