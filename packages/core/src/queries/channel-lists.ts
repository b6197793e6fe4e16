/**
 * The channel lists of one user, shared by GET /users/me/subscriptions, GET /streams and the
 * register snapshot (gather_subscriptions_helper, get_streams_for_user).
 */
import { canSeeSubscribers, hasContentAccess, hasMetadataAccess } from '../access/channel-rules.js';
import { CHANNEL_COLORS } from '../channels/subscription-records.js';
import { type ApiStream, type ApiSubscription, formatStream, formatSubscription } from '../format/channel.js';
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
function withSubscribers<T extends ApiStream>(object: T, subscribers: readonly number[], visible: boolean, include: IncludeSubscribers): T & ChannelSubscribers {
  if (include === false) return object;
  const ids = visible ? [...subscribers] : [];
  return include === 'partial' && ids.length >= PARTIAL_SUBSCRIBERS_THRESHOLD ? { ...object, partial_subscribers: ids } : { ...object, subscribers: ids };
}

/** A channel's subscribers, when the request asked for them (`include_subscribers`). */
export interface ChannelSubscribers {
  subscribers?: number[];
  /** Instead of `subscribers` for a large channel when the client asked for `partial`. */
  partial_subscribers?: number[];
}

/** A channel the user can see but never joined, as register's `never_subscribed` lists it. */
export interface ApiNeverSubscribed extends ApiStream, ChannelSubscribers {}

/** Register's three channel lists (and GET /users/me/subscriptions' first). */
export interface SubscriptionLists {
  subscriptions: ApiSubscription[];
  unsubscribed: ApiSubscription[];
  never_subscribed: ApiNeverSubscribed[];
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
    const visible = canSeeSubscribers(user, stream, subscribed);
    if (row) {
      const list = subscribed ? lists.subscriptions : lists.unsubscribed;
      list.push(withSubscribers(formatSubscription(stream, row, ids.length), ids, visible, options.includeSubscribers));
    } else {
      lists.never_subscribed.push(withSubscribers(formatStream(stream, ids.length), ids, visible, options.includeSubscribers));
    }
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
export async function formatStreams(tx: Tx, realm: Realm, streams: readonly Stream[]): Promise<ApiStream[]> {
  const counts = await tx.subscriptions.subscribersByStream(realm.id, streams.map((s) => s.id));
  return streams.map((stream) => formatStream(stream, counts.get(stream.id)!.length)).sort(byName);
}
