/** POST /typing over HTTP: zulip-js sends it as multipart with `to` as a JSON list. */
import { afterEach, expect, it } from 'vitest';
import { makeWorld } from '../helpers/core.js';
import { call, closeServers, expectError, expectSuccess, form, multipart, startServer } from '../helpers/http.js';

afterEach(closeServers);

it('relays a typing start to the recipient’s long-poll', async () => {
  const world = await makeWorld();
  const bob = await world.addUser({ email: 'bob@example.com', fullName: 'Bob' });
  const server = await startServer(world);
  const registered = expectSuccess(await call(server, 'POST', '/register', { auth: bob, body: form({ event_types: '["typing"]' }) }));
  const poll = call(server, 'GET', '/events', { auth: bob, query: { queue_id: registered.queue_id, last_event_id: '-1' } });
  expectSuccess(await call(server, 'POST', '/typing', { auth: world.owner, body: multipart({ op: 'start', to: `[${bob.id}]` }) }));
  const { events } = expectSuccess(await poll);
  expect(events).toEqual([
    {
      id: 0,
      type: 'typing',
      op: 'start',
      message_type: 'direct',
      sender: { user_id: world.owner.id, email: world.owner.deliveryEmail },
      recipients: [
        { user_id: world.owner.id, email: world.owner.deliveryEmail },
        { user_id: bob.id, email: 'bob@example.com' },
      ],
    },
  ]);
});

it('answers the reference’s errors with HTTP 400', async () => {
  const server = await startServer();
  const { owner } = server.world;
  expectError(await call(server, 'POST', '/typing', { auth: owner, body: form({ type: 'channel', op: 'start', topic: 't' }) }), 400, 'BAD_REQUEST', 'Missing channel ID');
  expectError(await call(server, 'POST', '/typing', { auth: owner, body: form({ op: 'start', to: '7' }) }), 400, 'BAD_REQUEST', 'to is not a list');
  expectError(await call(server, 'POST', '/typing', { auth: owner, body: form({ op: 'start', to: '[7' }) }), 400, 'BAD_REQUEST', 'to is not valid JSON');
  expectError(await call(server, 'POST', '/typing', { auth: owner, body: form({ type: 'private', op: 'start', to: '[1]' }) }), 400, 'BAD_REQUEST', 'Invalid type');
  expectError(await call(server, 'POST', '/typing', { body: form({ op: 'start', to: '[1]' }) }), 401, 'UNAUTHORIZED', 'Not logged in: API authentication or user session required');
});
