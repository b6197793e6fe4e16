/**
 * Shared pieces of the message flag tests: a realm with channels of every kind and messages in
 * them, the stored flags of a user, and what was published.
 */
import { doSendMessage, doSubscribe, FLAG_BITS, type PublishedEvent, type User } from '@teamchat/core/internal';
import { makeWorld, must, type World } from '../helpers/core.js';
import { fakeClock } from './fixtures.js';
import type { LoosePublishedEvent } from '../helpers/events.js';

export interface FlagWorld {
  w: World;
  /** Subscribed to general, secret and lobby. */
  owner: User;
  /** Subscribed to general only. */
  bob: User;
  /** Subscribed to general and secret. */
  cat: User;
  /** A guest subscribed to general. */
  guest: User;
  /** Channel IDs: general (public), secret (private, history not shared), lobby (public, owner only). */
  general: number;
  secret: number;
  lobby: number;
  published: PublishedEvent[];
  drain(): PublishedEvent[];
  send(sender: User, channel: string, topic: string, content?: string): Promise<number>;
  dm(sender: User, to: User[], content?: string): Promise<number>;
  /** The user's stored flag bits per message, undefined where they have no copy. */
  flagsOf(user: User, ids: number[]): Promise<Array<number | undefined>>;
}

export async function flagWorld(options: Parameters<typeof makeWorld>[0] = {}): Promise<FlagWorld> {
  const w = await makeWorld({ clock: fakeClock(), ...options, config: { timers: false, ...options.config } });
  const { owner } = w;
  const bob = await w.addUser({ email: 'bob@example.com', fullName: 'Bob Builder' });
  const cat = await w.addUser({ email: 'cat@example.com', fullName: 'Cat Cook' });
  const guest = await w.addUser({ email: 'gus@example.com', fullName: 'Gus Guest', role: 600 });
  const subscribe = async (name: string, users: User[], extra: Record<string, string> = {}) => {
    const principals = JSON.stringify(users.map((u) => u.id));
    must(await doSubscribe.fromTransport(w.ctx, w.as(owner), { subscriptions: JSON.stringify([{ name }]), principals, ...extra }));
    return w.ctx.storage.read(async (tx) => (await tx.streams.byName(w.realm.id, name))!.id);
  };
  const general = await subscribe('general', [owner, bob, cat, guest]);
  const secret = await subscribe('secret', [owner, cat], { invite_only: 'true' });
  const lobby = await subscribe('lobby', [owner]);
  const published: PublishedEvent[] = [];
  w.ctx.events.subscribe((event) => published.push(event));
  return {
    w,
    owner,
    bob,
    cat,
    guest,
    general,
    secret,
    lobby,
    published,
    drain: () => published.splice(0),
    async send(sender, channel, topic, content = 'hello') {
      return (must(await doSendMessage(w.ctx, w.as(sender), { type: 'stream', to: channel, topic, content }))).id;
    },
    async dm(sender, to, content = 'psst') {
      return (must(await doSendMessage(w.ctx, w.as(sender), { type: 'direct', to: JSON.stringify(to.map((u) => u.id)), content }))).id;
    },
    async flagsOf(user, ids) {
      const flags = await w.ctx.storage.read((tx) => tx.messages.flagsOf(user.id, ids));
      return ids.map((id) => flags.get(id));
    },
  };
}

export const READ = FLAG_BITS.read;
export const STARRED = FLAG_BITS.starred;
export const HISTORICAL = FLAG_BITS.historical;

/** The update_message_flags events published, with who they went to. */
export const flagEvents = (published: readonly PublishedEvent[]): Array<{ userIds: number[]; event: LoosePublishedEvent['event'] }> =>
  published.filter((p) => p.event.type === 'update_message_flags').map((p) => ({ userIds: [...p.userIds], event: p.event }));
