/** Messages and alert words over HTTP: success shapes, errors with their statuses, events to a long-poll. */
import { doSubscribe } from '@teamchat/core';
import { afterEach, expect, it } from 'vitest';
import { makeWorld, must } from '../helpers/core.js';
import { call, closeServers, expectError, expectSuccess, form, multipart, startServer } from '../helpers/http.js';

afterEach(closeServers);

const setup = async () => {
  const world = await makeWorld({ config: { timers: false } });
  const bob = await world.addUser({ email: 'bob@example.com', fullName: 'Bob Builder' });
  const eve = await world.addUser({ email: 'eve@example.com', fullName: 'Eve' });
  must(await doSubscribe(world.ctx, world.as(world.owner), { subscriptions: [{"name":"general"}], principals: [world.owner.id,bob.id,eve.id] }));
  must(await doSubscribe(world.ctx, world.as(world.owner), { subscriptions: [{"name":"secret"}], invite_only: true, principals: [bob.id] }));
  const server = await startServer(world);
  return { world, bob, eve, server };
};

it('sends a channel message (form and multipart) with FL 508 URLs, echoes local_id to the sending queue, and reads it back', async () => {
  const { world, bob, eve, server } = await setup();
  const queue = expectSuccess(await call(server, 'POST', '/register', { auth: bob, body: form({ event_types: '["message"]' }) }));
  const eveQueue = expectSuccess(await call(server, 'POST', '/register', { auth: eve, body: form({ event_types: '["message"]' }) }));
  const sent = expectSuccess(
    await call(server, 'POST', '/messages', {
      auth: bob,
      body: form({ type: 'stream', to: 'general', topic: 'hello', content: 'hi **all**', queue_id: queue.queue_id, local_id: '100.01' }),
    }),
  );
  expect(sent).toEqual({
    result: 'success',
    msg: '',
    id: 1,
    message_url: 'http://chat.example.com/#narrow/channel/1-general/topic/hello/near/1',
    message_link: '[#general > hello @ 💬](http://chat.example.com/#narrow/channel/1-general/topic/hello/near/1)',
    // Bob started the topic, which the reference's default follows.
    automatic_new_visibility_policy: 3,
  });
  const mine = expectSuccess(await call(server, 'GET', '/events', { auth: bob, query: { queue_id: queue.queue_id, last_event_id: '-1' } }));
  expect(mine.events).toMatchObject([{ id: 0, type: 'message', flags: ['read'], local_message_id: '100.01', message: { id: 1, content: 'hi **all**', content_type: 'text/x-markdown' } }]);
  const theirs = expectSuccess(await call(server, 'GET', '/events', { auth: eve, query: { queue_id: eveQueue.queue_id, last_event_id: '-1' } }));
  expect(theirs.events).toHaveLength(1);
  expect(theirs.events[0]).not.toHaveProperty('local_message_id');

  const dm = expectSuccess(await call(server, 'POST', '/messages', { auth: eve, body: multipart({ type: 'direct', to: `[${bob.id}]`, content: 'psst' }) }));
  expect(dm.message_link).toBe(dm.message_url);

  const page = expectSuccess(await call(server, 'GET', '/messages', { auth: bob, query: { anchor: 'newest', num_before: '5', num_after: '0', apply_markdown: 'false' } }));
  expect(page).toMatchObject({ found_anchor: false, found_newest: true, found_oldest: true, history_limited: false });
  expect(page.messages.map((x: { id: number; content: string }) => [x.id, x.content])).toEqual([[1, 'hi **all**'], [2, 'psst']]);
  const one = expectSuccess(await call(server, 'GET', '/messages/2', { auth: bob }));
  expect(one).toMatchObject({ raw_content: 'psst', message: { id: 2, type: 'private', flags: [] } });
  const matches = expectSuccess(await call(server, 'POST', '/messages/matches_narrow', { auth: bob, body: form({ msg_ids: '[1,2]', narrow: '[["search","hi"]]' }) }));
  expect(matches.messages).toEqual({ 1: { match_content: '<p><span class="highlight">hi</span> <strong>all</strong></p>', match_subject: 'hello' } });
  // The owner is not part of the direct message.
  expectError(await call(server, 'GET', '/messages/2', { auth: world.owner }), 400, 'BAD_REQUEST', 'Invalid message(s)');
});

it('answers the reference errors with their statuses and fields', async () => {
  const { world, eve, server } = await setup();
  const post = (body: Record<string, string>) => call(server, 'POST', '/messages', { auth: eve, body: form(body) });
  expectError(await post({ type: 'stream', to: 'secret', topic: 't', content: 'x' }), 400, 'STREAM_DOES_NOT_EXIST', "Channel 'secret' does not exist", { stream: 'secret' });
  expectError(await post({ type: 'stream', to: '99', topic: 't', content: 'x' }), 400, 'STREAM_DOES_NOT_EXIST', "Channel with ID '99' does not exist", { stream_id: 99 });
  expectError(await post({ type: 'direct', to: '[99]', content: 'x' }), 400, 'BAD_REQUEST', 'Invalid user ID 99');
  expectError(await post({ type: 'direct', to: '["x@example.com"]', content: 'x' }), 400, 'BAD_REQUEST', "Invalid email 'x@example.com'");
  expectError(await post({ type: 'stream', to: 'general', topic: 't', content: '  ' }), 400, 'BAD_REQUEST', 'Message must not be empty');
  expectError(await post({ type: 'stream', to: 'general', content: 'x' }), 400, 'BAD_REQUEST', 'Missing topic');
  expectError(await post({ type: 'stream', to: 'general', topic: 't' }), 400, 'REQUEST_VARIABLE_MISSING', "Missing 'content' argument", { var_name: 'content' });
  expectError(await post({ type: 'stream', to: 'general', topic: 't', subject: 's', content: 'x' }), 400, 'REQUEST_CONFUSING_VAR', "Can't decide between 'topic' and 'subject' arguments", {
    var_name1: 'topic',
    var_name2: 'subject',
  });
  expectError(await call(server, 'POST', '/messages', { body: form({ type: 'stream', to: 'general', topic: 't', content: 'x' }) }), 401, 'UNAUTHORIZED', 'Not logged in: API authentication or user session required');
  const get = (query: Record<string, string>) => call(server, 'GET', '/messages', { auth: eve, query });
  expectError(await get({ anchor: 'newest', num_before: '1', num_after: '0', narrow: '[["channel","secret"]]' }), 400, 'BAD_NARROW', 'Invalid narrow operator: unknown channel');
  expectError(await get({ anchor: 'newest', num_before: '1', num_after: '0', narrow: '[["bogus","x"]]' }), 400, 'BAD_NARROW', 'Invalid narrow operator: unknown operator');
  expectError(await get({ anchor: 'newest', num_before: '3000', num_after: '3000' }), 400, 'BAD_REQUEST', 'Too many messages requested (maximum 5000).');
  expectError(await get({ message_ids: '[1]', anchor: 'newest' }), 400, 'BAD_REQUEST', 'Unsupported parameter combination: message_ids, anchor', { parameters: 'message_ids, anchor' });
  expectError(await get({ anchor: 'newest', num_before: 'x', num_after: '0' }), 400, 'BAD_REQUEST', 'num_before is not valid JSON');
  expectError(await call(server, 'GET', '/messages/999', { auth: world.owner }), 400, 'BAD_REQUEST', 'Invalid message(s)');
});

it('alert words: add, list, remove, the event, and errors', async () => {
  const { bob, server } = await setup();
  const queue = expectSuccess(await call(server, 'POST', '/register', { auth: bob, body: form({ event_types: '["alert_words"]', fetch_event_types: '["alert_words"]' }) }));
  expect(queue.alert_words).toEqual([]);
  expect(expectSuccess(await call(server, 'POST', '/users/me/alert_words', { auth: bob, body: form({ alert_words: '["Soup", " bread "]' }) }))).toEqual({
    result: 'success',
    msg: '',
    alert_words: ['Soup', 'bread'],
  });
  expect(expectSuccess(await call(server, 'GET', '/users/me/alert_words', { auth: bob })).alert_words).toEqual(['Soup', 'bread']);
  expect(expectSuccess(await call(server, 'DELETE', '/users/me/alert_words', { auth: bob, body: form({ alert_words: '["soup"]' }) })).alert_words).toEqual(['bread']);
  const { events } = expectSuccess(await call(server, 'GET', '/events', { auth: bob, query: { queue_id: queue.queue_id, last_event_id: '-1' } }));
  expect(events).toEqual([
    { id: 0, type: 'alert_words', alert_words: ['Soup', 'bread'] },
    { id: 1, type: 'alert_words', alert_words: ['bread'] },
  ]);
  expectError(await call(server, 'POST', '/users/me/alert_words', { auth: bob, body: form({ alert_words: JSON.stringify(['x'.repeat(101)]) }) }), 400, 'BAD_REQUEST', 'alert_words[0] is too long (limit: 100 characters)');
  expectError(await call(server, 'POST', '/users/me/alert_words', { auth: bob, body: form({ alert_words: '[' }) }), 400, 'BAD_REQUEST', 'alert_words is not valid JSON');
  expectError(await call(server, 'DELETE', '/users/me/alert_words', { auth: bob }), 400, 'REQUEST_VARIABLE_MISSING', "Missing 'alert_words' argument", { var_name: 'alert_words' });
  expectError(await call(server, 'GET', '/users/me/alert_words'), 401, 'UNAUTHORIZED', 'Not logged in: API authentication or user session required');
});
