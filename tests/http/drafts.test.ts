/** Drafts over HTTP: success shapes, errors with their statuses (404 for an unknown draft), bad input, events to the owner. */
import { doSubscribe } from '@teamchat/core';
import { afterEach, expect, it } from 'vitest';
import { makeWorld, must } from '../helpers/core.js';
import { call, closeServers, expectError, expectSuccess, form, startServer } from '../helpers/http.js';

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

const channelDraft = (streamId: number, extra: Record<string, unknown> = {}) => ({ type: 'stream', to: [streamId], topic: 'plans', content: 'See you', timestamp: 1595479020, ...extra });

it('creates, lists, edits and deletes drafts, with events on the owner’s queue only', async () => {
  const { bob, eve, server } = await setup();
  const bobQueue = expectSuccess(await call(server, 'POST', '/register', { auth: bob, body: form({ event_types: '["drafts"]' }) }));
  const eveQueue = expectSuccess(await call(server, 'POST', '/register', { auth: eve, body: form({ event_types: '["drafts"]' }) }));
  const created = expectSuccess(
    await call(server, 'POST', '/drafts', {
      auth: bob,
      body: form({ drafts: JSON.stringify([channelDraft(2), { type: 'private', to: [eve.id], topic: '', content: 'Hello there!', timestamp: 1595479019 }]) }),
    }),
  );
  expect(created).toEqual({ result: 'success', msg: '', ids: [1, 2] });
  const listed = expectSuccess(await call(server, 'GET', '/drafts', { auth: bob }));
  expect(listed).toEqual({
    result: 'success',
    msg: '',
    count: 2,
    drafts: [
      { id: 2, type: 'private', to: [eve.id], topic: '', content: 'Hello there!', timestamp: 1595479019 },
      { id: 1, type: 'stream', to: [2], topic: 'plans', content: 'See you', timestamp: 1595479020 },
    ],
  });
  const edited = { type: 'private', to: [eve.id, bob.id], topic: '', content: 'Hello everyone!', timestamp: 1595479030 };
  expect(expectSuccess(await call(server, 'PATCH', '/drafts/2', { auth: bob, body: form({ draft: JSON.stringify(edited) }) }))).toEqual({ result: 'success', msg: '' });
  expect(expectSuccess(await call(server, 'DELETE', '/drafts/1', { auth: bob }))).toEqual({ result: 'success', msg: '' });
  const events = expectSuccess(await call(server, 'GET', '/events', { auth: bob, query: { queue_id: bobQueue.queue_id, last_event_id: '-1' } })).events;
  expect(events).toEqual([
    { id: 0, type: 'drafts', op: 'add', drafts: listed.drafts.slice().reverse() },
    { id: 1, type: 'drafts', op: 'update', draft: { id: 2, type: 'private', to: [eve.id], topic: '', content: 'Hello everyone!', timestamp: 1595479030 } },
    { id: 2, type: 'drafts', op: 'remove', draft_id: 1 },
  ]);
  const eveEvents = expectSuccess(await call(server, 'GET', '/events', { auth: eve, query: { queue_id: eveQueue.queue_id, last_event_id: '-1', dont_block: 'true' } })).events;
  expect(eveEvents.filter((e: { type: string }) => e.type === 'drafts')).toEqual([]);
  const registered = expectSuccess(await call(server, 'POST', '/register', { auth: bob, body: form({ fetch_event_types: '["drafts"]' }) }));
  expect(registered.drafts).toEqual([{ id: 2, type: 'private', to: [eve.id], topic: '', content: 'Hello everyone!', timestamp: 1595479030 }]);
});

it('answers errors with the reference statuses and texts', async () => {
  const { bob, eve, server } = await setup();
  expectSuccess(await call(server, 'POST', '/drafts', { auth: bob, body: form({ drafts: JSON.stringify([channelDraft(2)]) }) }));
  const post = (drafts: string, auth = bob) => call(server, 'POST', '/drafts', { auth, body: form({ drafts }) });
  expectError(await post(JSON.stringify([channelDraft(2, { to: [] })])), 400, 'BAD_REQUEST', 'Must specify exactly 1 channel ID for channel messages');
  expectError(await post(JSON.stringify([channelDraft(2)]), eve), 400, 'BAD_REQUEST', 'Invalid channel ID');
  expectError(await post(JSON.stringify([channelDraft(2, { extra: true })])), 400, 'BAD_REQUEST', 'Argument "extra" at drafts[0]["extra"] is unexpected');
  expectError(await post('[{"type":'), 400, 'BAD_REQUEST', 'drafts is not valid JSON');
  expectError(await post(JSON.stringify([channelDraft(2, { content: '' })])), 400, 'BAD_REQUEST', 'drafts[0]["content"] cannot be blank');
  expectError(await post(JSON.stringify([{ type: 'private', to: [12345], topic: '', content: 'x' }])), 400, 'BAD_REQUEST', 'Invalid user ID 12345');
  expectError(await call(server, 'POST', '/drafts', { auth: bob }), 400, 'REQUEST_VARIABLE_MISSING', "Missing 'drafts' argument", { var_name: 'drafts' });
  // Unknown and other users' drafts: HTTP 404 with code BAD_REQUEST.
  expectError(await call(server, 'PATCH', '/drafts/1', { auth: eve, body: form({ draft: JSON.stringify(channelDraft(2)) }) }), 404, 'BAD_REQUEST', 'Draft does not exist');
  expectError(await call(server, 'DELETE', '/drafts/1', { auth: eve }), 404, 'BAD_REQUEST', 'Draft does not exist');
  expectError(await call(server, 'DELETE', '/drafts/999', { auth: bob }), 404, 'BAD_REQUEST', 'Draft does not exist');
  expectError(await call(server, 'DELETE', '/drafts/abc', { auth: bob }), 400, 'BAD_REQUEST', 'draft_id is not an integer');
  expectError(await call(server, 'PATCH', '/drafts/1', { auth: bob, body: form({ draft: '[]' }) }), 400, 'BAD_REQUEST', 'draft is not a dict');
  const unauth = 'Not logged in: API authentication or user session required';
  expectError(await call(server, 'GET', '/drafts'), 401, 'UNAUTHORIZED', unauth);
  expectError(await call(server, 'POST', '/drafts', { body: form({ drafts: '[]' }) }), 401, 'UNAUTHORIZED', unauth);
  expectError(await call(server, 'DELETE', '/drafts/1'), 401, 'UNAUTHORIZED', unauth);
  // Synchronization off refuses every draft endpoint.
  expectSuccess(await call(server, 'PATCH', '/settings', { auth: bob, body: form({ enable_drafts_synchronization: 'false' }) }));
  expectError(await call(server, 'GET', '/drafts', { auth: bob }), 400, 'BAD_REQUEST', 'User has disabled synchronizing drafts.');
  expectError(await call(server, 'DELETE', '/drafts/1', { auth: bob }), 400, 'BAD_REQUEST', 'User has disabled synchronizing drafts.');
  const registered = expectSuccess(await call(server, 'POST', '/register', { auth: bob, body: form({ fetch_event_types: '["drafts"]' }) }));
  expect(registered.drafts).toEqual([]);
});
