/** PATCH/DELETE /messages/{id}, delete_topic, topics and edit typing over HTTP: shapes, statuses, form values. */
import { afterEach, expect, it } from 'vitest';
import { updateRealmAsOperator } from '@teamchat/core';
import { makeWorld, must } from '../helpers/core.js';
import { call, closeServers, expectError, expectSuccess, form, multipart, startServer } from '../helpers/http.js';

afterEach(closeServers);

async function setup() {
  const world = await makeWorld({ config: { timers: false } });
  must(await updateRealmAsOperator(world.ctx, world.realm, { settings: { move_messages_within_stream_limit_seconds: 0 } }));
  const bob = await world.addUser({ email: 'bob@example.com', fullName: 'Bob' });
  const server = await startServer(world);
  expectSuccess(await call(server, 'POST', '/users/me/subscriptions', { auth: world.owner, body: form({ subscriptions: '[{"name":"general"}]', principals: `[${bob.id}]` }) }));
  const send = async (topic: string, user = bob) =>
    expectSuccess(await call(server, 'POST', '/messages', { auth: user, body: form({ type: 'stream', to: 'general', topic, content: 'hi' }) })).id as number;
  return { world, bob, server, send };
}

it('edits, moves and deletes, with the reference’s errors and statuses', async () => {
  const { world, bob, server, send } = await setup();
  const id = await send('lunch');
  const registered = expectSuccess(await call(server, 'POST', '/register', { auth: bob, body: form({ event_types: '["update_message","delete_message"]', client_capabilities: '{"bulk_message_deletion":true}' }) }));
  expect(expectSuccess(await call(server, 'PATCH', `/messages/${id}`, { auth: bob, body: multipart({ content: 'edited' }) }))).toEqual({ result: 'success', msg: '', detached_uploads: [] });
  expectError(await call(server, 'PATCH', `/messages/${id}`, { auth: world.owner, body: form({ content: 'mine now' }) }), 400, 'BAD_REQUEST', "You don't have permission to edit this message");
  expectError(await call(server, 'PATCH', `/messages/${id}`, { auth: bob, body: form({ stream_id: '[1' }) }), 400, 'BAD_REQUEST', 'stream_id is not valid JSON');
  expectError(await call(server, 'PATCH', `/messages/${id}`, { auth: bob, body: form({ topic: 'x', stream_id: '"1"' }) }), 400, 'BAD_REQUEST', 'stream_id is not an integer');
  expectError(await call(server, 'PATCH', '/messages/999', { auth: bob, body: form({ content: 'x' }) }), 400, 'BAD_REQUEST', 'Invalid message(s)');
  expectError(await call(server, 'PATCH', `/messages/${id}`, { body: form({ content: 'x' }) }), 401, 'UNAUTHORIZED', 'Not logged in: API authentication or user session required');
  // A limit of 0 s (plus the 20 s of slack) still lets the moment's message move.
  const later = await send('lunch', world.owner);
  expectSuccess(await call(server, 'PATCH', `/messages/${later}`, { auth: bob, body: form({ topic: 'brunch', propagate_mode: 'change_one' }) }));

  // A member who can read the public channel, but did not send the message.
  const carl = await world.addUser({ email: 'carl@example.com' });
  expectError(await call(server, 'DELETE', `/messages/${id}`, { auth: carl }), 400, 'BAD_REQUEST', "You don't have permission to delete this message");
  expectError(await call(server, 'DELETE', '/messages/abc', { auth: bob }), 400, 'BAD_REQUEST', 'message_id is not an integer');
  expectSuccess(await call(server, 'DELETE', `/messages/${id}`, { auth: bob }));
  expectError(await call(server, 'DELETE', `/messages/${id}`, { auth: bob }), 400, 'BAD_REQUEST', 'Invalid message(s)');

  const { events } = expectSuccess(await call(server, 'GET', '/events', { auth: bob, query: { queue_id: registered.queue_id, last_event_id: '-1', dont_block: 'true' } }));
  expect(events.map((e: { type: string }) => e.type)).toEqual(['update_message', 'update_message', 'delete_message']);
  expect(events[2]).toEqual({ id: 2, type: 'delete_message', message_type: 'stream', stream_id: 1, topic: 'lunch', message_ids: [id] });
});

it('delete_topic, topics and edit typing', async () => {
  const { world, bob, server, send } = await setup();
  const id = await send('doomed');
  expectError(await call(server, 'POST', '/streams/1/delete_topic', { auth: bob, body: form({ topic_name: 'doomed' }) }), 400, 'UNAUTHORIZED_PRINCIPAL', 'Must be an organization administrator');
  expectError(await call(server, 'POST', '/streams/1/delete_topic', { auth: world.owner, body: form({}) }), 400, 'REQUEST_VARIABLE_MISSING', "Missing 'topic_name' argument");
  expectError(await call(server, 'POST', '/streams/99/delete_topic', { auth: world.owner, body: form({ topic_name: 'doomed' }) }), 400, 'BAD_REQUEST', 'Invalid channel ID');
  expect(expectSuccess(await call(server, 'GET', '/users/me/1/topics', { auth: bob }))).toEqual({ result: 'success', msg: '', topics: [{ name: 'doomed', max_id: id }] });
  expectSuccess(await call(server, 'POST', `/messages/${id}/typing`, { auth: bob, body: form({ op: 'start' }) }));
  expectError(await call(server, 'POST', `/messages/${id}/typing`, { auth: bob, body: form({}) }), 400, 'REQUEST_VARIABLE_MISSING', "Missing 'op' argument");
  expect(expectSuccess(await call(server, 'POST', '/streams/1/delete_topic', { auth: world.owner, body: form({ topic_name: 'Doomed' }) }))).toEqual({ result: 'success', msg: '', complete: true });
  expect(expectSuccess(await call(server, 'GET', '/users/me/1/topics', { auth: bob })).topics).toEqual([]);
  expectError(await call(server, 'GET', '/users/me/99/topics', { auth: bob }), 400, 'BAD_REQUEST', 'Invalid channel ID');
});
