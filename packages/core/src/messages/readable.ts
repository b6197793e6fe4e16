import { hasContentAccess } from '../access/channel-rules.js';
import { readsChannelHistory } from './holders.js';
import type { MessageScope, Realm, Stream, Tx, User } from '../storage/types.js';
import type { NarrowContext } from './resolve-narrow.js';

/** What a user can read: their own copies, plus the whole history of channels they may read. */
export interface Readable {
  scope: MessageScope;
  visibleStreams: Stream[];
  publicStreamIds: number[];
  allStreams: Stream[];
  /** Channels the user is actively subscribed to. */
  subscribedStreamIds: ReadonlySet<number>;
}

/**
 * The one definition of message visibility shared by GET /messages, the flag endpoints and
 * anything else that reads history: a user reads their own copies (even of channels they have
 * since left), and every message of a channel whose history they may read.
 */
export async function readableBy(tx: Tx, user: User): Promise<Readable> {
  const { allStreams, subscribed } = await channelStateOf(tx, user);
  const visibleStreams = allStreams.filter((s) => hasContentAccess(user, s, subscribed.has(s.id)));
  const shared = visibleStreams.filter((s) => readsChannelHistory(user, s, subscribed.has(s.id)));
  return {
    scope: { userId: user.id, sharedHistoryStreamIds: shared.map((s) => s.id) },
    visibleStreams,
    publicStreamIds: allStreams.filter((s) => !s.inviteOnly && !s.isArchived).map((s) => s.id),
    allStreams,
    subscribedStreamIds: subscribed,
  };
}

/**
 * How a reader's narrow resolves: names reach only channels they can see, and `channels:public`
 * means the public channels whose history they may read.
 */
export function narrowContextFor(tx: Tx, realm: Realm, user: User, readable: Readable): NarrowContext {
  return {
    tx,
    realm,
    viewer: user,
    visibleStreams: readable.visibleStreams,
    publicStreamIds: readable.publicStreamIds.filter((id) => readable.scope.sharedHistoryStreamIds.includes(id)),
  };
}

/**
 * The realm's channels and the user's active subscriptions, as of the transaction. Every read
 * of history needs them and they change rarely, so they are kept under the channel state token
 * (StreamStore.stateToken): one cheap read instead of decoding every channel and subscription
 * row on each request. What depends on the user's role and groups is still computed per call.
 * The cached values are frozen: they are shared by every request until the next channel write.
 */
async function channelStateOf(tx: Tx, user: User): Promise<{ allStreams: Stream[]; subscribed: ReadonlySet<number> }> {
  const token = await tx.streams.stateToken();
  const streamsKey = `${token}:${user.realmId}`;
  let allStreams = channelCache.get(streamsKey) as Stream[] | undefined;
  if (!allStreams) {
    allStreams = Object.freeze((await tx.streams.list(user.realmId)).map((s) => Object.freeze(s))) as Stream[];
    remember(streamsKey, allStreams);
  }
  const subscribedKey = `${streamsKey}:${user.id}`;
  let subscribed = channelCache.get(subscribedKey) as ReadonlySet<number> | undefined;
  if (!subscribed) {
    subscribed = new Set((await tx.subscriptions.forUser(user.realmId, user.id)).filter((s) => s.active).map((s) => s.streamId));
    remember(subscribedKey, subscribed);
  }
  return { allStreams, subscribed };
}

/** Entries under old tokens are never read again; the bound drops them (and any excess) wholesale. */
const CHANNEL_CACHE_LIMIT = 4096;
const channelCache = new Map<string, unknown>();
const remember = (key: string, value: unknown) => {
  if (channelCache.size >= CHANNEL_CACHE_LIMIT) channelCache.clear();
  channelCache.set(key, value);
};
