/** Scheduled messages over HTTP: success shapes, errors with their statuses, unauthenticated access. */
import { doSubscribe } from '@teamchat/core';
import { afterEach, expect, it } from 'vitest';
import { makeWorld, must } from '../helpers/core.js';
import { call, closeServers, expectError, expectSuccess, form, startServer } from '../helpers/http.js';

afterEach(closeServers);

it('creates, lists, edits and deletes scheduled messages; unknown ones are 404', async () => {
  const world = await makeWorld({ config: { timers: false } });
  const bob = await world.addUser({ email: 'bob@example.com', fullName: 'Bob Builder' });
  must(await doSubscribe(world.ctx, world.as(world.owner), { subscriptions: [{"name":"general"}], principals: [world.owner.id,bob.id] }));
  const general = (await world.ctx.storage.read((tx) => tx.streams.byName(world.realm.id, 'general')))!.id;
  const server = await startServer(world);
  const when = Math.trunc(world.ctx.clock.now() / 1000) + 600;
  const created = expectSuccess(
    await call(server, 'POST', '/scheduled_messages', { auth: bob, body: form({ type: 'stream', to: String(general), topic: 'plans', content: 'Hi', scheduled_delivery_timestamp: String(when) }) }),
  );
  const id = created.scheduled_message_id as number;
  expect(created).toEqual({ result: 'success', msg: '', scheduled_message_id: id });
  expect(expectSuccess(await call(server, 'GET', '/scheduled_messages', { auth: bob }))).toEqual({
    result: 'success',
    msg: '',
    scheduled_messages: [{ scheduled_message_id: id, type: 'stream', to: general, topic: 'plans', content: 'Hi', rendered_content: '<p>Hi</p>', scheduled_delivery_timestamp: when, failed: false }],
  });
  expectSuccess(await call(server, 'PATCH', `/scheduled_messages/${id}`, { auth: bob, body: form({ content: 'Bye' }) }));
  expectError(await call(server, 'PATCH', `/scheduled_messages/${id + 100}`, { auth: bob, body: form({ content: 'x' }) }), 404, 'BAD_REQUEST', 'Scheduled message does not exist');
  expectError(
    await call(server, 'POST', '/scheduled_messages', { auth: bob, body: form({ type: 'stream', to: '99', topic: 't', content: 'Hi', scheduled_delivery_timestamp: String(when) }) }),
    400,
    'STREAM_DOES_NOT_EXIST',
    "Channel with ID '99' does not exist",
  );
  expectError(await call(server, 'GET', '/scheduled_messages', {}), 401, 'UNAUTHORIZED', 'Not logged in: API authentication or user session required');
  expectSuccess(await call(server, 'DELETE', `/scheduled_messages/${id}`, { auth: bob }));
  expectError(await call(server, 'DELETE', `/scheduled_messages/${id}`, { auth: bob }), 404, 'BAD_REQUEST', 'Scheduled message does not exist');
});
