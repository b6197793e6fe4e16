import { hasContentAccess } from '../access/channel-rules.js';
import { isGuest } from '../access/roles.js';
import type { GroupMember } from '../access/system-groups.js';
import type { Message, Stream, Tx, User } from '../storage/types.js';

/**
 * Whether a user reads a channel's whole history, copies or not: the rule of readableBy
 * (public channels for non-guests, web-public ones, subscribed ones whose history is shared).
 */
export function readsChannelHistory(user: GroupMember, stream: Stream, subscribed: boolean): boolean {
  if (!hasContentAccess(user, stream, subscribed)) return false;
  return (!stream.inviteOnly && !isGuest(user)) || stream.isWebPublic || (subscribed && stream.historyPublicToSubscribers);
}

/** Each holder of a message with their flags; null for a subscriber who reads it without a copy. */
export type Holders = Map<number, number | null>;

/**
 * Who holds messages in their client state, for update_message and delete_message events:
 * active users with a copy, and active subscribers who read the channel's history. Loaded once
 * per transaction; subscriber lists are cached per channel.
 */
export class Audiences {
  private readonly subscribers = new Map<number, Set<number>>();

  private constructor(
    private readonly tx: Tx,
    private readonly realmId: number,
    readonly users: ReadonlyMap<number, User>,
  ) {}

  static async load(tx: Tx, realmId: number): Promise<Audiences> {
    return new Audiences(tx, realmId, new Map((await tx.users.list(realmId)).map((u) => [u.id, u])));
  }

  async subscribersOf(streamId: number): Promise<Set<number>> {
    let ids = this.subscribers.get(streamId);
    if (!ids) {
      ids = new Set(await this.tx.subscriptions.activeSubscriberIds(this.realmId, streamId));
      this.subscribers.set(streamId, ids);
    }
    return ids;
  }

  /** The holders of one message in its current place; `stream` is its channel (channel messages). */
  async of(message: Message, stream: Stream | undefined): Promise<Holders> {
    const holders: Holders = new Map();
    for (const copy of await this.tx.messages.recipients(message.id)) {
      if (this.users.get(copy.userId)?.isActive) holders.set(copy.userId, copy.flags);
    }
    if (message.type === 'stream' && stream) {
      for (const id of await this.subscribersOf(stream.id)) {
        const user = this.users.get(id);
        if (user?.isActive && !holders.has(id) && readsChannelHistory(user, stream, true)) holders.set(id, null);
      }
    }
    return holders;
  }

  /** For each user, the IDs of the messages they hold. */
  async byUser(messages: readonly Message[], streams: ReadonlyMap<number, Stream>): Promise<Map<number, number[]>> {
    const out = new Map<number, number[]>();
    for (const message of messages) {
      for (const userId of (await this.of(message, streams.get(message.streamId ?? -1))).keys()) {
        out.set(userId, [...(out.get(userId) ?? []), message.id]);
      }
    }
    return out;
  }
}
