/**
 * Queue bounds over a real socket (issue #10): an overflowing queue and a queue evicted by the
 * per-user cap answer 400 BAD_EVENT_QUEUE_ID with `queue_id`, the error clients re-register on,
 * and a long-poll waiting on such a queue is answered with it at once.
 */
import { doUpdateUser, type ServerConfig } from '@teamchat/core';
import { afterEach, describe, expect, it } from 'vitest';
import { fakeClock } from '../core/fixtures.js';
import { makeWorld } from '../helpers/core.js';
import { type CallOptions, call, closeServers, expectError, expectSuccess, form, startServer, type TestServer } from '../helpers/http.js';
import { untypedEvent } from '../helpers/events.js';

afterEach(closeServers);

async function serverWith(config: Partial<ServerConfig>) {
  const clock = fakeClock();
  const server = await startServer(await makeWorld({ clock, config: { timers: false, ...config } }));
  const member = await server.world.addUser({ email: 'mel@example.com', fullName: 'Mel Member' });
  return { server, member, clock };
}

async function registerQueue(server: TestServer, auth: CallOptions['auth']): Promise<string> {
  return expectSuccess(await call(server, 'POST', '/register', { auth, body: form({ fetch_event_types: '[]' }) })).queue_id;
}

const expectGone = (response: Parameters<typeof expectError>[0], queueId: string) =>
  expectError(response, 400, 'BAD_EVENT_QUEUE_ID', `Bad event queue ID: ${queueId}`, { queue_id: queueId });

describe('GET /events on a queue over its bounds', () => {
  it('a queue that fell too far behind answers BAD_EVENT_QUEUE_ID; re-registering works', async () => {
    const { server, member } = await serverWith({ maxQueueLength: 2 });
    const { ctx } = server.world;
    const queueId = await registerQueue(server, member);
    for (const name of ['One', 'Two', 'Three']) await doUpdateUser(ctx, server.world.as(server.world.owner), { user_id: member.id, full_name: name });
    expectGone(await call(server, 'GET', '/events', { auth: member, query: { queue_id: queueId, last_event_id: '-1' } }), queueId);
    expectGone(await call(server, 'DELETE', '/events', { auth: member, body: form({ queue_id: queueId }) }), queueId);
    const fresh = expectSuccess(await call(server, 'POST', '/register', { auth: member, body: form({ fetch_event_types: '["realm_user"]' }) }));
    expect(fresh.realm_users.find((u: { user_id: number }) => u.user_id === member.id).full_name).toBe('Three');
  });

  it('a waiting long-poll is answered with BAD_EVENT_QUEUE_ID as soon as its queue overflows', async () => {
    const { server, member } = await serverWith({ maxQueueBytes: 2000 });
    const queueId = await registerQueue(server, member);
    const waiting = call(server, 'GET', '/events', { auth: member, query: { queue_id: queueId, last_event_id: '-1' } });
    // Let the request reach the server and start waiting before the event is published.
    for (let tries = 0; tries < 1000 && !server.world.ctx.queues.userQueues(member.id)[0]?.waiter; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    server.world.ctx.events.publish({ realmId: server.world.realm.id, userIds: [member.id], event: untypedEvent({ type: 'test', text: 'x'.repeat(5000) }) });
    expectGone(await waiting, queueId);
  });
});

describe('POST /register past maxQueuesPerUser', () => {
  it('ends the least recently used queue; other users are untouched', async () => {
    const { server, member, clock } = await serverWith({ maxQueuesPerUser: 2 });
    const ownersQueue = await registerQueue(server, server.world.owner);
    const first = await registerQueue(server, member);
    const second = await registerQueue(server, member);
    clock.advance(1000);
    expectSuccess(await call(server, 'GET', '/events', { auth: member, query: { queue_id: first, last_event_id: '-1', dont_block: 'true' } }));
    const third = await registerQueue(server, member);
    expectGone(await call(server, 'GET', '/events', { auth: member, query: { queue_id: second, last_event_id: '-1' } }), second);
    for (const queueId of [first, third]) {
      expectSuccess(await call(server, 'GET', '/events', { auth: member, query: { queue_id: queueId, last_event_id: '-1', dont_block: 'true' } }));
    }
    expectSuccess(
      await call(server, 'GET', '/events', { auth: server.world.owner, query: { queue_id: ownersQueue, last_event_id: '-1', dont_block: 'true' } }),
    );
  });
});
