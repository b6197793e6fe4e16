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
  const allStreams = await tx.streams.list(user.realmId);
  const subscribed = new Set((await tx.subscriptions.forUser(user.realmId, user.id)).filter((s) => s.active).map((s) => s.streamId));
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
