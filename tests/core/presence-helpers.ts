/**
 * Shared pieces of the presence tests: a realm with one user of each kind on a hand-moved
 * clock, a caller that reads the realm as stored (presence_disabled and the access group are
 * realm settings), and one-line reports.
 */
import { type Caller, doUpdatePresence, doUpdateRealm, type PublishedEvent, systemGroupId, type User } from '@teamchat/core/internal';
import { makeWorld, must, type World, type WorldOptions } from '../helpers/core.js';
import { fakeClock, T0 } from './fixtures.js';
import type { LoosePublishedEvent } from '../helpers/events.js';

type LooseEvent = LoosePublishedEvent['event'];

/** Unix seconds of the fake clock's start. */
export const S0 = Math.floor(T0 / 1000);

export async function presenceWorld(options: WorldOptions = {}) {
  const clock = fakeClock();
  const w = await makeWorld({ clock, ...options, config: { timers: false, ...options.config } });
  const admin = await w.addUser({ email: 'ada@example.com', fullName: 'Ada Admin', role: 200 });
  const member = await w.addUser({ email: 'mel@example.com', fullName: 'Mel Member' });
  const other = await w.addUser({ email: 'otto@example.com', fullName: 'Otto Other' });
  const guest = await w.addUser({ email: 'gus@example.com', fullName: 'Gus Guest', role: 600 });
  const bot = await w.addUser({ email: 'mel-bot@example.com', fullName: 'Mel Bot', bot: true, botOwnerId: member.id });
  const published: PublishedEvent[] = [];
  w.ctx.events.subscribe((event) => published.push(event));
  return {
    w, clock, admin, member, other, guest, bot, published,
    /**
     * Returns and forgets the presence events published so far, each with both its shapes in
     * one object (the legacy event's fields and the modern `presences`), as the tests compare them.
     */
    drain: () =>
      published
        .splice(0)
        .filter((p) => p.event.type === 'presence')
        .map((p) => ({ ...p, event: { ...p.event, ...p.tailoring?.byCapability?.declared } })),
    /** Moves the clock by whole seconds. */
    advance: (seconds: number) => clock.advance(seconds * 1000),
  };
}

export type PresenceWorld = Awaited<ReturnType<typeof presenceWorld>>;

/** A caller with the realm and user as stored now. */
export async function as(w: World, user: User): Promise<Caller & { user: User }> {
  return w.ctx.storage.read(async (tx) => ({ realm: (await tx.realms.byId(w.realm.id))!, user: (await tx.users.byId(w.realm.id, user.id))! }));
}

/** POST /users/me/presence as `user`; the answer. */
export async function ping(w: World, user: User, status: 'active' | 'idle' = 'active', extra: Record<string, unknown> = {}) {
  // biome-ignore lint/suspicious/noExplicitAny: answers are checked field by field.
  return must(await doUpdatePresence(w.ctx, await as(w, user), { status, ...extra })) as any;
}

export async function setRealm(w: World, settings: Record<string, unknown>): Promise<void> {
  must(await doUpdateRealm(w.ctx, await as(w, w.owner), settings));
}

export const restrictGuests = (w: World) => setRealm(w, { can_access_all_users_group: JSON.stringify({ new: systemGroupId('role:members') }) });

export const sorted = (...users: User[]) => users.map((u) => u.id).sort((a, b) => a - b);
