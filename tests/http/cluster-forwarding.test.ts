/**
 * GET and DELETE /events reaching a node that does not own the queue are answered by its owner
 * (forwarded with the client's credentials); a queue whose node is gone is BAD_EVENT_QUEUE_ID.
 * Two servers over one storage, joined by the in-process MemoryCluster.
 */
import { createContext, createMemoryCluster, doSendMessage, silentLogger } from '@teamchat/core/internal';
import { afterEach, describe, expect, it } from 'vitest';
import { makeWorld, must, TEST_PASSWORD_HASH_COST } from '../helpers/core.js';
import { call, closeServers, expectError, expectSuccess, startServer } from '../helpers/http.js';

afterEach(closeServers);

async function twoServers() {
  const cluster = createMemoryCluster();
  const w = await makeWorld({ cluster: cluster.join('a') });
  const bob = await w.addUser({ email: 'bob@example.com', fullName: 'Bob' });
  const a = await startServer(w);
  const bCtx = createContext({ storage: w.ctx.storage, cluster: cluster.join('b'), logger: silentLogger, config: { passwordHashCost: TEST_PASSWORD_HASH_COST } });
  const b = await startServer({ ...w, ctx: bCtx });
  cluster.locate('a', a.url);
  cluster.locate('b', b.url);
  return { cluster, w, a, b, bob };
}

describe('GET and DELETE /events across nodes', () => {
  it('answers a poll sent to another node from the owner’s queue, long-poll included', async () => {
    const { w, a, b, bob } = await twoServers();
    const registered = expectSuccess(await call(a, 'POST', '/register', { auth: bob, body: new URLSearchParams({ event_types: '["message"]' }) }));
    expect(registered.queue_id).toMatch(/^a\./);
    const waiting = call(b, 'GET', '/events', { auth: bob, query: { queue_id: registered.queue_id, last_event_id: '-1' } });
    await new Promise((resolve) => setTimeout(resolve, 50));
    must(await doSendMessage(b.world.ctx, w.as(w.owner), { type: 'direct', to: JSON.stringify([bob.id]), content: 'hello' }));
    const polled = expectSuccess(await waiting);
    expect(polled.queue_id).toBe(registered.queue_id);
    expect(polled.events.map((e: { type: string }) => e.type)).toEqual(['message']);
    expect(polled.events[0].message.content).toContain('hello');
  });

  it('deletes the queue at its owner, with parameters from the body', async () => {
    const { a, b, bob } = await twoServers();
    const registered = expectSuccess(await call(a, 'POST', '/register', { auth: bob }));
    expectSuccess(await call(b, 'DELETE', '/events', { auth: bob, body: new URLSearchParams({ queue_id: registered.queue_id }) }));
    const after = await call(a, 'GET', '/events', { auth: bob, query: { queue_id: registered.queue_id, dont_block: 'true' } });
    expectError(after, 400, 'BAD_EVENT_QUEUE_ID', `Bad event queue ID: ${registered.queue_id}`);
  });

  it('lets the owner authenticate: another user’s credentials get the owner’s answer', async () => {
    const { w, a, b, bob } = await twoServers();
    const registered = expectSuccess(await call(a, 'POST', '/register', { auth: bob }));
    const asOwner = await call(b, 'GET', '/events', { auth: w.owner, query: { queue_id: registered.queue_id, dont_block: 'true' } });
    expectError(asOwner, 400, 'BAD_EVENT_QUEUE_ID', `Bad event queue ID: ${registered.queue_id}`);
    const anonymous = await call(b, 'GET', '/events', { query: { queue_id: registered.queue_id } });
    expect(anonymous.status).toBe(401);
  });

  it('answers BAD_EVENT_QUEUE_ID for a queue whose node is gone or unreachable, so that the client re-registers', async () => {
    const { cluster, a, b, bob } = await twoServers();
    const registered = expectSuccess(await call(a, 'POST', '/register', { auth: bob }));
    // Unreachable: still in the directory, but its server has stopped listening (the storage it shares stays open).
    a.server.closeAllConnections();
    await new Promise((resolve) => a.server.close(resolve));
    const unreachable = await call(b, 'GET', '/events', { auth: bob, query: { queue_id: registered.queue_id, dont_block: 'true' } });
    expectError(unreachable, 400, 'BAD_EVENT_QUEUE_ID', `Bad event queue ID: ${registered.queue_id}`);
    cluster.locate('a', null);
    const gone = await call(b, 'GET', '/events', { auth: bob, query: { queue_id: registered.queue_id, dont_block: 'true' } });
    expectError(gone, 400, 'BAD_EVENT_QUEUE_ID', `Bad event queue ID: ${registered.queue_id}`);
  });

  it('answers a request another node forwarded where it lands, so that nodes never bounce it', async () => {
    const { a, b, bob } = await twoServers();
    const registered = expectSuccess(await call(a, 'POST', '/register', { auth: bob }));
    const forwarded = await call(b, 'GET', '/events', {
      auth: bob,
      query: { queue_id: registered.queue_id, dont_block: 'true' },
      headers: { 'x-teamchat-forwarded-by': 'a' },
    });
    expectError(forwarded, 400, 'BAD_EVENT_QUEUE_ID', `Bad event queue ID: ${registered.queue_id}`);
  });
});
