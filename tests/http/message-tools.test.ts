/**
 * The small endpoints clients call beside the message list: GET (and POST) /messages/matches_narrow,
 * POST /messages/render and GET /users/{user_id}/subscriptions/{stream_id}, over HTTP.
 */
import { doSendMessage, doSubscribe } from '@teamchat/core';
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
  const streamId = async (name: string) => (await world.ctx.storage.read((tx) => tx.streams.byName(world.realm.id, name)))!.id;
  return { world, bob, eve, server, streamId };
};

it('matches_narrow answers GET with query parameters as the Python bindings send it, and POST as before', async () => {
  const { world, bob, eve, server } = await setup();
  must(await doSendMessage(world.ctx, world.as(bob), { type: 'stream', to: 'general', topic: 'hello', content: 'hi all' }));
  must(await doSendMessage(world.ctx, world.as(bob), { type: 'stream', to: 'secret', topic: 'hush', content: 'hi secret' }));
  const query = { msg_ids: '[1,2]', narrow: JSON.stringify([{ operator: 'search', operand: 'hi' }]) };
  const byGet = expectSuccess(await call(server, 'GET', '/messages/matches_narrow', { auth: bob, query }));
  expect(Object.keys(byGet.messages)).toEqual(['1', '2']);
  expect(byGet.messages[1]).toEqual({ match_content: '<p><span class="highlight">hi</span> all</p>', match_subject: 'hello' });
  const byPost = expectSuccess(await call(server, 'POST', '/messages/matches_narrow', { auth: bob, body: form(query) }));
  expect(byPost.messages).toEqual(byGet.messages);
  // Eve may not read the private channel's message: it is left out, not an error.
  expect(Object.keys(expectSuccess(await call(server, 'GET', '/messages/matches_narrow', { auth: eve, query })).messages)).toEqual(['1']);

  expectError(await call(server, 'GET', '/messages/matches_narrow', { auth: bob, query: { narrow: '[]' } }), 400, 'REQUEST_VARIABLE_MISSING', "Missing 'msg_ids' argument");
  expectError(await call(server, 'GET', '/messages/matches_narrow', { auth: bob, query: { msg_ids: '[1', narrow: '[]' } }), 400, 'BAD_REQUEST', 'msg_ids is not valid JSON');
  expectError(await call(server, 'GET', '/messages/matches_narrow', { auth: bob, query: { msg_ids: '["a"]', narrow: '[]' } }), 400, 'BAD_REQUEST', 'msg_ids[0] is not an integer');
  expectError(await call(server, 'GET', '/messages/matches_narrow', { query }), 401, 'UNAUTHORIZED', /Not logged in/);
  const patch = await call(server, 'PATCH', '/messages/matches_narrow', { auth: bob, body: form(query) });
  expect(patch.status).toBe(405);
  expect(patch.body.allowed_methods).toEqual(['GET', 'POST']);
});

it('POST /messages/render renders for the caller; the literal path wins over /messages/{message_id}', async () => {
  const { bob, server } = await setup();
  const rendered = expectSuccess(await call(server, 'POST', '/messages/render', { auth: bob, body: form({ content: '**bold** #**general**' }) }));
  expect(rendered.rendered).toContain('<strong>bold</strong>');
  expect(rendered.rendered).toContain('class="stream"');
  expect(Object.keys(rendered).sort()).toEqual(['msg', 'rendered', 'result']);
  // zulip-js sends multipart.
  expect(expectSuccess(await call(server, 'POST', '/messages/render', { auth: bob, body: multipart({ content: '*x*' }) })).rendered).toBe('<p><em>x</em></p>');
  expect(expectSuccess(await call(server, 'POST', '/messages/render', { auth: bob, body: form({ content: '' }) })).rendered).toBe('');

  expectError(await call(server, 'POST', '/messages/render', { auth: bob, body: form({}) }), 400, 'REQUEST_VARIABLE_MISSING', "Missing 'content' argument", { var_name: 'content' });
  expectError(await call(server, 'POST', '/messages/render', { auth: bob, body: form({ content: 'x'.repeat(10001) }) }), 400, 'BAD_REQUEST', 'content is too long (limit: 10000 characters)');
  expectError(await call(server, 'POST', '/messages/render', { body: form({ content: 'x' }) }), 401, 'UNAUTHORIZED', /Not logged in/);
  const wrongMethod = await call(server, 'GET', '/messages/render', { auth: bob });
  expect(wrongMethod.status).toBe(405);
  expect(wrongMethod.body.allowed_methods).toEqual(['POST']);
});

it('GET /users/{user_id}/subscriptions/{stream_id} answers is_subscribed, with the reference errors', async () => {
  const { world, bob, eve, server, streamId } = await setup();
  const general = await streamId('general');
  const secret = await streamId('secret');
  expect(expectSuccess(await call(server, 'GET', `/users/${eve.id}/subscriptions/${general}`, { auth: bob }))).toEqual({ result: 'success', msg: '', is_subscribed: true });
  expect(expectSuccess(await call(server, 'GET', `/users/${eve.id}/subscriptions/${secret}`, { auth: bob })).is_subscribed).toBe(false);
  // The owner is an administrator: private channels are visible to them.
  expect(expectSuccess(await call(server, 'GET', `/users/${bob.id}/subscriptions/${secret}`, { auth: world.owner })).is_subscribed).toBe(true);

  expectError(await call(server, 'GET', `/users/${bob.id}/subscriptions/${secret}`, { auth: eve }), 400, 'BAD_REQUEST', 'Invalid channel ID');
  expectError(await call(server, 'GET', `/users/${bob.id}/subscriptions/9999`, { auth: eve }), 400, 'BAD_REQUEST', 'Invalid channel ID');
  expectError(await call(server, 'GET', `/users/9999/subscriptions/${general}`, { auth: eve }), 400, 'BAD_REQUEST', 'No such user');
  expectError(await call(server, 'GET', `/users/me/subscriptions/${general}`, { auth: eve }), 400, 'BAD_REQUEST', 'user_id is not an integer');
  expectError(await call(server, 'GET', `/users/${bob.id}/subscriptions/x1`, { auth: eve }), 400, 'BAD_REQUEST', 'stream_id is not an integer');
  expectError(await call(server, 'GET', `/users/${bob.id}/subscriptions/${general}`, {}), 401, 'UNAUTHORIZED', /Not logged in/);
  // The listing route beside it is not shadowed.
  expect(expectSuccess(await call(server, 'GET', '/users/me/subscriptions', { auth: eve })).subscriptions).toHaveLength(1);
});
