/**
 * Shared setup of the audit tests: a realm with an owner, two members and a guest, a public and
 * a private channel, and queues whose pending events a test drains without blocking.
 */
import type { User } from '@teamchat/core';
import { makeWorld } from '../helpers/core.js';
import { call, expectSuccess, form, startServer } from '../helpers/http.js';

export async function auditRealm() {
  const world = await makeWorld({ config: { timers: false } });
  const owner = world.owner;
  const bob = await world.addUser({ email: 'bob@example.com', fullName: 'Bob' });
  const eve = await world.addUser({ email: 'eve@example.com', fullName: 'Eve' });
  const guest = await world.addUser({ email: 'guest@example.com', fullName: 'Guest', role: 600 });
  const server = await startServer(world);
  const channel = async (name: string, principals: number[], extra: Record<string, string> = {}) => {
    const body = form({ subscriptions: JSON.stringify([{ name }]), principals: JSON.stringify(principals), ...extra });
    expectSuccess(await call(server, 'POST', '/users/me/subscriptions', { auth: owner, body }));
    return expectSuccess(await call(server, 'GET', '/get_stream_id', { auth: owner, query: { stream: name } })).stream_id as number;
  };
  const general = await channel('general', [owner.id, bob.id]);
  const secret = await channel('secret', [owner.id, bob.id], { invite_only: 'true' });
  const send = async (sender: User, to: string | number, topic: string, content = 'hi') =>
    expectSuccess(await call(server, 'POST', '/messages', { auth: sender, body: form({ type: 'stream', to: String(to), topic, content }) })).id as number;
  const sendDm = async (sender: User, to: number[], content = 'psst') =>
    expectSuccess(await call(server, 'POST', '/messages', { auth: sender, body: form({ type: 'direct', to: JSON.stringify(to), content }) })).id as number;
  /** A queue of the user's; `events()` answers what arrived since the last call. */
  const queue = async (user: User, eventTypes: string[], capabilities: Record<string, boolean> = {}) => {
    const registered = expectSuccess(
      await call(server, 'POST', '/register', {
        auth: user,
        body: form({ event_types: JSON.stringify(eventTypes), client_capabilities: JSON.stringify(capabilities) }),
      }),
    );
    let last = -1;
    return {
      // biome-ignore lint/suspicious/noExplicitAny: events are checked field by field.
      async events(): Promise<any[]> {
        const body = expectSuccess(await call(server, 'GET', '/events', { auth: user, query: { queue_id: registered.queue_id, last_event_id: String(last), dont_block: 'true' } }));
        const events = body.events.filter((e: { type: string }) => e.type !== 'heartbeat');
        if (body.events.length > 0) last = body.events[body.events.length - 1].id;
        return events;
      },
    };
  };
  return { world, server, owner, bob, eve, guest, general, secret, channel, send, sendDm, queue };
}
