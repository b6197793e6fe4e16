/** POST /register, GET /events and DELETE /events over a real socket (API.md 4.2, SHAPES.md 3). */
import { afterEach, describe, expect, it } from 'vitest';
import { makeWorld } from '../helpers/core.js';
import { type CallOptions, call, closeServers, expectError, expectSuccess, form, startServer, type TestServer } from '../helpers/http.js';

afterEach(closeServers);

async function serverWithMember() {
  const server = await startServer();
  const member = await server.world.addUser({ email: 'mel@example.com', fullName: 'Mel Member' });
  return { server, member };
}

async function registerQueue(server: TestServer, auth: CallOptions['auth'], values: Record<string, string> = {}): Promise<string> {
  const body = expectSuccess(await call(server, 'POST', '/register', { auth, body: form(values) }));
  return body.queue_id;
}

describe('POST /register', () => {
  it('answers with a queue and the requested sections', async () => {
    const { server, member } = await serverWithMember();
    const body = expectSuccess(
      await call(server, 'POST', '/register', {
        auth: member,
        body: form({ fetch_event_types: '["realm_user"]', idle_queue_timeout: 'mobile' }),
      }),
    );
    expect(body).toMatchObject({
      last_event_id: -1,
      idle_queue_timeout_secs: 43200,
      zulip_feature_level: 512,
      service_feature_level: 512,
      user_id: member.id,
      full_name: 'Mel Member',
    });
    expect(body.queue_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(body.realm_users.map((u: { user_id: number }) => u.user_id)).toEqual([server.world.owner.id, member.id]);
    expect(body).not.toHaveProperty('realm_bots');
  });

  it('refuses unauthenticated requests when the realm has no public access', async () => {
    const server = await startServer();
    expectError(await call(server, 'POST', '/register'), 401, 'UNAUTHORIZED', 'Not logged in: API authentication or user session required');
  });

  it('reports invalid JSON in a parameter', async () => {
    const { server, member } = await serverWithMember();
    expectError(
      await call(server, 'POST', '/register', { auth: member, body: form({ event_types: '[realm_user]' }) }),
      400,
      'BAD_REQUEST',
      'event_types is not valid JSON',
    );
  });
});

describe('GET /events', () => {
  it('a long-poll returns as soon as another request changes a user', async () => {
    const { server, member } = await serverWithMember();
    const queueId = await registerQueue(server, member, { event_types: '["realm_user"]' });
    let answeredAt = 0;
    const pending = call(server, 'GET', '/events', { auth: member, query: { queue_id: queueId, last_event_id: '-1' } }).then((r) => {
      answeredAt = performance.now();
      return r;
    });
    // Give the poll time to reach the server and wait there.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(answeredAt).toBe(0);
    expectSuccess(
      await call(server, 'PATCH', `/users/${member.id}`, { auth: server.world.owner, body: form({ full_name: 'Melanie' }) }),
    );
    const changedAt = performance.now();
    const body = expectSuccess(await pending);
    expect(answeredAt - changedAt).toBeLessThan(200);
    expect(body).toEqual({
      result: 'success',
      msg: '',
      queue_id: queueId,
      events: [{ type: 'realm_user', op: 'update', person: { user_id: member.id, full_name: 'Melanie' }, id: 0 }],
    });
  });

  it('dont_block answers at once; last_event_id acknowledges', async () => {
    const { server, member } = await serverWithMember();
    const queueId = await registerQueue(server, member);
    const poll = (last: string) =>
      call(server, 'GET', '/events', { auth: member, query: { queue_id: queueId, last_event_id: last, dont_block: 'true' } });
    expect(expectSuccess(await poll('-1')).events).toEqual([]);
    // A rename sends exactly one event (a role change would add user_group events for the system groups).
    expectSuccess(await call(server, 'PATCH', `/users/${member.id}`, { auth: server.world.owner, body: form({ full_name: 'Mel Renamed' }) }));
    expect(expectSuccess(await poll('-1')).events).toEqual([
      { type: 'realm_user', op: 'update', person: { user_id: member.id, full_name: 'Mel Renamed' }, id: 0 },
    ]);
    expect(expectSuccess(await poll('0')).events).toEqual([]);
    expectError(await poll('-1'), 400, 'BAD_REQUEST', 'An event newer than -1 has already been pruned!');
    expectError(await poll('3'), 400, 'BAD_REQUEST', 'Event 3 was not in this queue');
  });

  it('BAD_EVENT_QUEUE_ID (400, with queue_id) for unknown and other users’ queues', async () => {
    const { server, member } = await serverWithMember();
    expectError(
      await call(server, 'GET', '/events', { auth: member, query: { queue_id: 'nope', last_event_id: '-1' } }),
      400,
      'BAD_EVENT_QUEUE_ID',
      'Bad event queue ID: nope',
      { queue_id: 'nope' },
    );
    const ownersQueue = await registerQueue(server, server.world.owner);
    expectError(
      await call(server, 'GET', '/events', { auth: member, query: { queue_id: ownersQueue, last_event_id: '-1', dont_block: 'true' } }),
      400,
      'BAD_EVENT_QUEUE_ID',
      `Bad event queue ID: ${ownersQueue}`,
      { queue_id: ownersQueue },
    );
  });

  it('registers a queue when queue_id is absent', async () => {
    const { server, member } = await serverWithMember();
    const body = expectSuccess(
      await call(server, 'GET', '/events', { auth: member, query: { dont_block: 'true', event_types: '["realm_user"]' } }),
    );
    expect(body.events).toEqual([]);
    expect(body.queue_id).toMatch(/^[0-9a-f-]{36}$/);
    const again = expectSuccess(
      await call(server, 'GET', '/events', { auth: member, query: { queue_id: body.queue_id, last_event_id: '-1', dont_block: 'true' } }),
    );
    expect(again).toMatchObject({ queue_id: body.queue_id, events: [] });
  });

  it('needs authentication', async () => {
    const server = await startServer();
    expectError(
      await call(server, 'GET', '/events', { query: { dont_block: 'true' } }),
      401,
      'UNAUTHORIZED',
      'Not logged in: API authentication or user session required',
    );
  });
});

describe('DELETE /events', () => {
  it('deletes the queue; later calls get BAD_EVENT_QUEUE_ID', async () => {
    const { server, member } = await serverWithMember();
    const queueId = await registerQueue(server, member);
    const body = expectSuccess(await call(server, 'DELETE', '/events', { auth: member, body: form({ queue_id: queueId }) }));
    expect(body).toEqual({ result: 'success', msg: '' });
    expectError(
      await call(server, 'GET', '/events', { auth: member, query: { queue_id: queueId, last_event_id: '-1' } }),
      400,
      'BAD_EVENT_QUEUE_ID',
      `Bad event queue ID: ${queueId}`,
      { queue_id: queueId },
    );
    expectError(
      await call(server, 'DELETE', '/events', { auth: member, query: { queue_id: queueId } }),
      400,
      'BAD_EVENT_QUEUE_ID',
      `Bad event queue ID: ${queueId}`,
      { queue_id: queueId },
    );
  });

  it('answers the long-poll waiting on the deleted queue', async () => {
    const { server, member } = await serverWithMember();
    const queueId = await registerQueue(server, member);
    const pending = call(server, 'GET', '/events', { auth: member, query: { queue_id: queueId, last_event_id: '-1' } });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expectSuccess(await call(server, 'DELETE', '/events', { auth: member, body: form({ queue_id: queueId }) }));
    expect(expectSuccess(await pending)).toMatchObject({ queue_id: queueId, events: [] });
  });
});

describe('shutdown', () => {
  it('close() answers a waiting long-poll promptly', async () => {
    const world = await makeWorld();
    const server = await startServer(world);
    const queueId = await registerQueue(server, world.owner);
    const pending = call(server, 'GET', '/events', { auth: world.owner, query: { queue_id: queueId, last_event_id: '-1' } });
    await new Promise((resolve) => setTimeout(resolve, 50));
    const start = performance.now();
    await server.close();
    const body = expectSuccess(await pending);
    expect(performance.now() - start).toBeLessThan(1000);
    expect(body).toMatchObject({ queue_id: queueId, events: [] });
  });
});
