/**
 * Shared pieces of the message edit, delete and topic tests: a realm with a public, a private
 * (history not shared) and a second public channel, a settable clock, message sending, what was
 * published (with its audience), and queues registered with chosen capabilities.
 */
import { doRegister, doSendMessage, doSubscribe, getEvents, type PublishedEvent, type RealmStoredSettings, type ServerConfig, type User, updateRealmAsOperator } from '@teamchat/core';
import { makeWorld, must, type World } from '../helpers/core.js';
import { fakeClock } from './fixtures.js';
import type { LoosePublishedEvent } from '../helpers/events.js';

export interface EditWorld {
  w: World;
  clock: ReturnType<typeof fakeClock>;
  /** Owner: in general, secret, other. */
  owner: User;
  /** Member: in general and other. */
  alice: User;
  /** Member: in general and secret. */
  bob: User;
  /** Moderator: in general. */
  mod: User;
  /** Guest: in general. */
  guest: User;
  general: number;
  secret: number;
  other: number;
  send(sender: User, channel: string, topic: string, content?: string): Promise<number>;
  dm(sender: User, to: User[], content?: string): Promise<number>;
  /** Events published since the last call, with their audiences. */
  drain(): PublishedEvent[];
  /** Registers a queue for `user` and returns a function that fetches its new events. */
  queue(user: User, capabilities?: Record<string, boolean>): Promise<() => Promise<Array<Record<string, unknown>>>>;
}

/** `settings`: realm settings by API name (the editing limits), stored as the realm's own; `config`: the server's. */
export async function editWorld(settings: RealmStoredSettings = {}, config: Partial<ServerConfig> = {}): Promise<EditWorld> {
  const clock = fakeClock();
  const w = await makeWorld({ clock, config: { timers: false, ...config } });
  must(await updateRealmAsOperator(w.ctx, w.realm, { settings }));
  const { owner } = w;
  const alice = await w.addUser({ email: 'alice@example.com', fullName: 'Alice Adams' });
  const bob = await w.addUser({ email: 'bob@example.com', fullName: 'Bob Brown' });
  const mod = await w.addUser({ email: 'mod@example.com', fullName: 'Mo Moderator', role: 300 });
  const guest = await w.addUser({ email: 'guest@example.com', fullName: 'Gus Guest', role: 600 });
  const subscribe = async (name: string, users: User[], extra: Record<string, string> = {}) => {
    must(await doSubscribe(w.ctx, w.as(owner), { subscriptions: [{ name }], principals: users.map((u) => u.id), ...extra }));
    return w.ctx.storage.read(async (tx) => (await tx.streams.byName(w.realm.id, name))!.id);
  };
  const general = await subscribe('general', [owner, alice, bob, mod, guest]);
  const secret = await subscribe('secret', [owner, bob], { invite_only: 'true', history_public_to_subscribers: 'false' });
  const other = await subscribe('other', [owner, alice]);
  const published: PublishedEvent[] = [];
  w.ctx.events.subscribe((event) => published.push(event));
  return {
    w,
    clock,
    owner,
    alice,
    bob,
    mod,
    guest,
    general,
    secret,
    other,
    async send(sender, channel, topic, content = 'hello') {
      return (must(await doSendMessage(w.ctx, w.as(sender), { type: 'stream', to: channel, topic, content }))).id;
    },
    async dm(sender, to, content = 'psst') {
      return (must(await doSendMessage(w.ctx, w.as(sender), { type: 'direct', to: JSON.stringify(to.map((u) => u.id)), content }))).id;
    },
    drain: () => published.splice(0),
    async queue(user, capabilities = {}) {
      const { queue_id } = must(await doRegister(w.ctx, w.as(user), { client_capabilities: capabilities })) as { queue_id: string };
      let last = -1;
      return async () => {
        const { events } = must(await getEvents(w.ctx, w.as(user), { queue_id, last_event_id: last, dont_block: true })) as { events: Array<Record<string, unknown> & { id: number }> };
        if (events.length > 0) last = events[events.length - 1]!.id;
        return events.filter((e) => e.type !== 'heartbeat');
      };
    },
  };
}

/** The published events of one type. */
export const ofType = (events: readonly PublishedEvent[], type: string): LoosePublishedEvent[] => events.filter((e) => e.event.type === type);
