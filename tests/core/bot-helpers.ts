/**
 * Shared pieces of the bot tests: the message world (every role, channels `general` and
 * `secret`), creating bots through the API, and the reference's verify_action check over the
 * realm_user and realm_bot sections.
 */
import { doCreateBot, doRegister, getEvents, type User } from '@teamchat/core';
import type { LooseQueuedEvent as QueuedEvent } from '../helpers/events.js';
import { expect } from 'vitest';
import { must, type World } from '../helpers/core.js';
import { applyEvents, normalized, type State } from './apply-events.js';
import { snapshot } from './fixtures.js';
import { type MessageWorld, messageWorld } from './message-helpers.js';

export const SECTIONS = '["realm_user", "realm_bot"]';

/** The message world, with a bot-creating helper. */
export async function botWorld(options: Parameters<typeof messageWorld>[0] = {}) {
  const mw = await messageWorld(options);
  /** Creates a bot as `owner` with the given form values and returns it as stored. */
  const createBot = async (owner: User, params: Record<string, unknown>): Promise<User> => {
    const { user_id } = must(await doCreateBot(mw.w.ctx, mw.w.as(owner), { full_name: 'Some Bot', short_name: 'some', ...params }));
    return (await mw.w.ctx.storage.read((tx) => tx.users.byId(mw.w.realm.id, user_id)))!;
  };
  return { ...mw, createBot };
}

export type BotWorld = Awaited<ReturnType<typeof botWorld>>;

/** Replaces the realm's stored non-default settings. */
export async function setRealmSettings(w: World, settings: Record<string, unknown>): Promise<void> {
  await w.ctx.storage.transaction(async (tx) => {
    await tx.realms.update(w.realm.id, { settings: settings as never });
    return { isOk: () => true, isErr: () => false, value: undefined } as never;
  });
  w.realm = (await w.ctx.storage.read((tx) => tx.realms.byId(w.realm.id)))!;
}

const register = async (w: World, user: User): Promise<State> =>
  must(await doRegister.fromTransport(w.ctx, w.as(user), { fetch_event_types: SECTIONS, client_gravatar: false }));

/**
 * verify_action: registers each user, runs `action`, applies each queue's events to its
 * snapshot and asserts that equals a fresh register. Returns the events each user received.
 */
export async function verifyAction(w: World, users: User[], action: () => Promise<unknown>): Promise<Map<number, QueuedEvent[]>> {
  const before = new Map<number, State>();
  for (const user of users) before.set(user.id, await register(w, user));
  await action();
  const stored = await snapshot(w.ctx, w.realm);
  const received = new Map<number, QueuedEvent[]>();
  for (const user of users) {
    const state = before.get(user.id)!;
    const polled = must(await getEvents(w.ctx, w.as(user), { queue_id: state.queue_id, dont_block: true }));
    const current = stored.find((u) => u.id === user.id)!;
    const applied = await applyEvents(state, polled.events, {
      clientGravatar: false,
      emailPublic: (id) => stored.find((u) => u.id === id)?.emailAddressVisibility === 1,
      webPublicAccess: w.realm.webPublicAccessEnabled,
      refetchBots: async () => (await register(w, current)).realm_bots,
    });
    expect(normalized(applied), `user ${user.id}`).toEqual(normalized(await register(w, current)));
    received.set(user.id, polled.events.map(({ id: _id, ...event }) => event as QueuedEvent));
  }
  return received;
}

/** The IDs among `received` that got at least one event of `type` (and `op`). */
export function receiversOf(received: Map<number, QueuedEvent[]>, type: string, op?: string): number[] {
  return [...received]
    .filter(([, events]) => events.some((e) => e.type === type && (op === undefined || e.op === op)))
    .map(([id]) => id)
    .sort((a, b) => a - b);
}

export type { MessageWorld };
