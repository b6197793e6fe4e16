import { hasContentAccess } from '../access/channel-rules.js';
import type { GroupMember } from '../access/system-groups.js';
import { readsChannelHistory } from './holders.js';
import type { MessageScope, Realm, Stream, Tx, User } from '../storage/types.js';
import type { NarrowContext } from './resolve-narrow.js';

/** What a user can read: their own copies, plus the whole history of channels they may read. */
export interface Readable {
  scope: MessageScope;
  visibleStreams: Stream[];
  publicStreamIds: number[];
  allStreams: Stream[];
  /** The names of `allStreams` by ID, as formatted messages show them (display_recipient). */
  streamNames: ReadonlyMap<number, string>;
  /** Channels the user is actively subscribed to. */
  subscribedStreamIds: ReadonlySet<number>;
}

/**
 * The one definition of message visibility shared by GET /messages, the flag endpoints and
 * anything else that reads history: a user reads their own copies (even of channels they have
 * since left), and every message of a channel whose history they may read. Kept per process
 * under the channel state token (channelStateOf) with what the channel rules read of the user,
 * so a request after no channel write derives nothing again; the value is frozen, shared.
 */
export async function readableBy(tx: Tx, user: User): Promise<Readable> {
  const token = await tx.streams.stateToken();
  // The channel rules (hasContentAccess, readsChannelHistory) take a GroupMember: of the user
  // they read only the ID, role and user-defined groups, so those and the channel state are all
  // the answer depends on.
  const groups = (user as GroupMember).userGroupIds;
  const key = `readable:${token}:${user.realmId}:${user.id}:${user.role}:${groups ? [...groups].sort((a, b) => a - b).join(',') : ''}`;
  let readable = channelCache.get(key) as Readable | undefined;
  if (!readable) {
    readable = readableIn(user, await channelStateOf(tx, user, token));
    remember(key, readable);
  }
  return readable;
}

/** `readableBy` over the channel state read: frozen, as kept values are shared by every request until the next channel write. */
function readableIn(user: User, { allStreams, subscribed }: { allStreams: Stream[]; subscribed: ReadonlySet<number> }): Readable {
  const visibleStreams = allStreams.filter((s) => hasContentAccess(user, s, subscribed.has(s.id)));
  const shared = visibleStreams.filter((s) => readsChannelHistory(user, s, subscribed.has(s.id)));
  return Object.freeze({
    scope: Object.freeze({ userId: user.id, sharedHistoryStreamIds: Object.freeze(shared.map((s) => s.id)) }),
    visibleStreams: Object.freeze(visibleStreams) as Stream[],
    publicStreamIds: Object.freeze(allStreams.filter((s) => !s.inviteOnly && !s.isArchived).map((s) => s.id)) as number[],
    allStreams,
    streamNames: new Map(allStreams.map((s) => [s.id, s.name])),
    subscribedStreamIds: subscribed,
  });
}

/**
 * How a reader's narrow resolves: names reach only channels they can see, and `channels:public`
 * means the public channels whose history they may read.
 */
export function narrowContextFor(tx: Tx, realm: Realm, user: User, readable: Readable): NarrowContext {
  let publicStreamIds = sharedPublicStreamIds.get(readable);
  if (!publicStreamIds) {
    const shared = new Set(readable.scope.sharedHistoryStreamIds);
    publicStreamIds = Object.freeze(readable.publicStreamIds.filter((id) => shared.has(id))) as number[];
    sharedPublicStreamIds.set(readable, publicStreamIds);
  }
  return { tx, realm, viewer: user, visibleStreams: readable.visibleStreams, publicStreamIds };
}

/** narrowContextFor's public channels per Readable: a kept Readable computes them once. */
const sharedPublicStreamIds = new WeakMap<Readable, number[]>();

/**
 * The realm's channels and the user's active subscriptions, as of the transaction. Every read
 * of history needs them and they change rarely, so they are kept under the channel state token
 * (StreamStore.stateToken): one cheap read instead of decoding every channel and subscription
 * row on each request (readableBy keeps what it derives from them for the user's role and
 * groups under the same token). The cached values are frozen: they are shared by every request until the next channel write.
 */
async function channelStateOf(tx: Tx, user: User, token: number): Promise<{ allStreams: Stream[]; subscribed: ReadonlySet<number> }> {
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
