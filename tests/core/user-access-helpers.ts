/**
 * The world of the can_access_all_users_group tests: a guest who shares a channel with one
 * member and a direct conversation with another, a member they share nothing with, a bot, and
 * callers that read the realm as stored (a read takes its realm from the caller).
 */
import {
  type RegisterResponse,
  type Caller,
  doRegister,
  doSendMessage,
  doSubscribe,
  doUpdateRealm,
  getEvents,
  type QueuedEvent,
  systemGroupId,
  type User,
} from '@teamchat/core/internal';
import { makeWorld, must, type World } from '../helpers/core.js';
import { fakeClock } from './fixtures.js';

export async function accessWorld() {
  const w = await makeWorld({ clock: fakeClock(), config: { timers: false } });
  const guest = await w.addUser({ email: 'gus@example.com', fullName: 'Gus Guest', role: 600 });
  const channelmate = await w.addUser({ email: 'cam@example.com', fullName: 'Cam Channelmate' });
  const correspondent = await w.addUser({ email: 'dee@example.com', fullName: 'Dee Correspondent' });
  const stranger = await w.addUser({ email: 'sam@example.com', fullName: 'Sam Stranger' });
  const bot = await w.addUser({ email: 'helper-bot@example.com', fullName: 'Helper Bot', bot: true, botOwnerId: stranger.id });
  // A guest joins no default channel; the garden is the one channel the guest shares.
  must(await doSubscribe(w.ctx, await as(w, w.owner), { subscriptions: [{"name":"garden"}], principals: [guest.id, channelmate.id] }));
  must(await doSendMessage(w.ctx, await as(w, correspondent), { type: 'private', to: JSON.stringify([guest.id]), content: 'hello' }));
  return { w, guest, channelmate, correspondent, stranger, bot };
}

/** A caller with the realm as stored now. */
export async function as(w: World, user: User): Promise<Caller & { user: User }> {
  const realm = await w.ctx.storage.read((tx) => tx.realms.byId(w.realm.id));
  return { realm: realm!, user };
}

/** Sets can_access_all_users_group ('role:members' restricts guests; 'role:everyone' is the default). */
export async function setAccessGroup(w: World, group: 'role:members' | 'role:everyone'): Promise<void> {
  must(await doUpdateRealm(w.ctx, await as(w, w.owner), { can_access_all_users_group: { new: systemGroupId(group) } }));
}

export type State = RegisterResponse & { queue_id: string };

export async function register(w: World, user: User, capabilities: Record<string, boolean> = {}): Promise<State> {
  const params = { fetch_event_types: '["realm_user"]', client_capabilities: JSON.stringify(capabilities) };
  return must(await doRegister.fromTransport(w.ctx, await as(w, user), params)) as State;
}

export async function eventsOf(w: World, user: User, queueId: string): Promise<QueuedEvent[]> {
  const polled = must(await getEvents(w.ctx, await as(w, user), { queue_id: queueId, dont_block: true }));
  return (polled).events;
}

export const ids = (users: ReadonlyArray<{ user_id: number }> = []) => users.map((u) => u.user_id).sort((a, b) => a - b);
