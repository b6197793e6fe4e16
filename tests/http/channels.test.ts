/**
 * The channel and subscription endpoints over HTTP: zulip-js sends JSON lists inside form
 * values (multipart for POST), GET parameters in the query string, DELETE and PATCH bodies as
 * form data. Statuses, envelopes and error fields as the reference sends them.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { makeWorld } from '../helpers/core.js';
import { call, closeServers, expectError, expectSuccess, form, multipart, startServer } from '../helpers/http.js';

afterEach(closeServers);

async function setup() {
  const world = await makeWorld();
  const admin = await world.addUser({ email: 'ada@example.com', fullName: 'Ada Admin', role: 200 });
  const member = await world.addUser({ email: 'mel@example.com', fullName: 'Mel Member' });
  const other = await world.addUser({ email: 'otto@example.com', fullName: 'Otto Other' });
  const server = await startServer(world);
  return { server, world, admin, member, other };
}

describe('subscriptions over HTTP', () => {
  it('subscribes (multipart, JSON in form values), lists, changes properties and unsubscribes', async () => {
    const { server, member, other } = await setup();
    const subscribed = expectSuccess(
      await call(server, 'POST', '/users/me/subscriptions', {
        auth: member,
        body: multipart({ subscriptions: JSON.stringify([{ name: 'Denmark', description: 'Hi' }]), principals: JSON.stringify([member.id, other.id]) }),
      }),
    );
    expect(subscribed).toEqual({
      result: 'success',
      msg: '',
      subscribed: { [member.id]: ['Denmark'], [other.id]: ['Denmark'] },
      already_subscribed: {},
    });
    const listed = expectSuccess(await call(server, 'GET', '/users/me/subscriptions', { auth: member, query: { include_subscribers: 'partial' } }));
    expect(listed.subscriptions).toEqual([
      expect.objectContaining({ name: 'Denmark', description: 'Hi', rendered_description: '<p>Hi</p>', subscribers: [member.id, other.id], subscriber_count: 2 }),
    ]);
    const streamId = listed.subscriptions[0].stream_id;
    expectSuccess(
      await call(server, 'POST', '/users/me/subscriptions/properties', {
        auth: member,
        body: form({ subscription_data: JSON.stringify([{ stream_id: streamId, property: 'color', value: '#abcdef' }]) }),
      }),
    );
    const after = expectSuccess(await call(server, 'GET', '/users/me/subscriptions', { auth: member }));
    expect(after.subscriptions[0]).toMatchObject({ color: '#abcdef' });
    expect(after.subscriptions[0]).not.toHaveProperty('subscribers');
    expect(expectSuccess(await call(server, 'DELETE', '/users/me/subscriptions', { auth: member, body: form({ subscriptions: '["Denmark"]' }) }))).toEqual({
      result: 'success',
      msg: '',
      removed: ['Denmark'],
      not_removed: [],
    });
  });

  it('answers the reference’s errors with their statuses and fields', async () => {
    const { server, member, other } = await setup();
    const post = (values: Record<string, string>) => call(server, 'POST', '/users/me/subscriptions', { auth: member, body: form(values) });
    expectError(await post({ subscriptions: '[{"name": "a"}' }), 400, 'BAD_REQUEST', 'subscriptions is not valid JSON');
    expectError(await post({}), 400, 'REQUEST_VARIABLE_MISSING', "Missing 'subscriptions' argument", { var_name: 'subscriptions' });
    expectError(await post({ subscriptions: '[{"name": "a"}]', principals: '[99999]' }), 400, 'BAD_REQUEST', 'No such user');
    expectError(await call(server, 'POST', '/users/me/subscriptions', { body: form({ subscriptions: '[{"name": "a"}]' }) }), 401, 'UNAUTHORIZED', 'Not logged in: API authentication or user session required');
    expectError(
      await call(server, 'DELETE', '/users/me/subscriptions', { auth: other, body: form({ subscriptions: '["nonexistent"]' }) }),
      400,
      'STREAM_DOES_NOT_EXIST',
      "Channel 'nonexistent' does not exist",
      { stream: 'nonexistent' },
    );
    expectError(
      await call(server, 'POST', '/users/me/subscriptions/properties', { auth: member, body: form({ subscription_data: '[{"stream_id": 77, "property": "x", "value": 1}]' }) }),
      400,
      'BAD_REQUEST',
      'Invalid subscription_data[0]["value"]',
    );
    const res = await call(server, 'PUT', '/users/me/subscriptions', { auth: member });
    expect(res.status).toBe(405);
    expect(res.body.allowed_methods).toEqual(['DELETE', 'GET', 'POST']);
  });

  it('lists parameters the endpoint does not support', async () => {
    const { server, member } = await setup();
    const body = expectSuccess(
      await call(server, 'POST', '/users/me/subscriptions', {
        auth: member,
        body: form({ subscriptions: '[{"name": "a"}]', send_new_subscription_messages: 'true', announce: 'true' }),
      }),
    );
    expect(body.ignored_parameters_unsupported).toEqual(['send_new_subscription_messages']);
  });
});

describe('channels over HTTP', () => {
  it('reads, updates, archives, and hides private channels from outsiders', async () => {
    const { server, admin, member, other } = await setup();
    expectSuccess(await call(server, 'POST', '/users/me/subscriptions', { auth: member, body: form({ subscriptions: '[{"name": "Denmark"}]' }) }));
    expectSuccess(await call(server, 'POST', '/users/me/subscriptions', { auth: member, body: form({ subscriptions: '[{"name": "secret"}]', invite_only: 'true' }) }));
    const { streams } = expectSuccess(await call(server, 'GET', '/streams', { auth: other }));
    expect(streams.map((s: { name: string }) => s.name)).toEqual(['Denmark']);
    const { streams: all } = expectSuccess(await call(server, 'GET', '/streams', { auth: admin, query: { include_all: 'true', include_default: 'true' } }));
    expect(all.map((s: { name: string; is_default: boolean }) => [s.name, s.is_default])).toEqual([
      ['Denmark', false],
      ['secret', false],
    ]);
    const [denmark, secret] = all.map((s: { stream_id: number }) => s.stream_id);

    expect(expectSuccess(await call(server, 'GET', `/streams/${denmark}`, { auth: other })).stream).toMatchObject({ name: 'Denmark', subscriber_count: 1 });
    expectError(await call(server, 'GET', `/streams/${secret}`, { auth: other }), 400, 'BAD_REQUEST', 'Invalid channel ID');
    expectError(await call(server, 'GET', `/streams/${secret}/members`, { auth: other }), 400, 'BAD_REQUEST', 'Invalid channel ID');
    expectError(await call(server, 'GET', '/get_stream_id', { auth: other, query: { stream: 'secret' } }), 400, 'BAD_REQUEST', "Invalid channel name 'secret'");
    expectError(await call(server, 'GET', '/streams/abc', { auth: other }), 400, 'BAD_REQUEST', 'stream_id is not an integer');
    expect(expectSuccess(await call(server, 'GET', `/streams/${denmark}/members`, { auth: other })).subscribers).toEqual([member.id]);
    expect(expectSuccess(await call(server, 'GET', '/get_stream_id', { auth: other, query: { stream: 'DENMARK' } })).stream_id).toBe(denmark);

    expectError(await call(server, 'PATCH', `/streams/${denmark}`, { auth: other, body: form({ description: 'x' }) }), 400, 'BAD_REQUEST', 'You do not have permission to administer this channel.');
    expectSuccess(await call(server, 'PATCH', `/streams/${denmark}`, { auth: admin, body: form({ new_name: 'Danmark', description: 'About' }) }));
    expectError(
      await call(server, 'PATCH', `/streams/${denmark}`, { auth: admin, body: form({ new_name: 'SECRET' }) }),
      400,
      'CHANNEL_ALREADY_EXISTS',
      "Channel 'SECRET' already exists",
    );
    expect(expectSuccess(await call(server, 'GET', `/streams/${denmark}`, { auth: other })).stream).toMatchObject({ name: 'Danmark', description: 'About' });

    expectSuccess(await call(server, 'POST', '/default_streams', { auth: admin, body: form({ stream_id: String(denmark) }) }));
    expect(expectSuccess(await call(server, 'GET', '/default_streams', { auth: other })).default_streams).toEqual([denmark]);
    expectError(
      await call(server, 'POST', '/default_streams', { auth: other, body: form({ stream_id: String(denmark) }) }),
      400,
      'UNAUTHORIZED_PRINCIPAL',
      'Must be an organization administrator',
    );
    expectSuccess(await call(server, 'DELETE', '/default_streams', { auth: admin, body: form({ stream_id: String(denmark) }) }));

    expectSuccess(await call(server, 'DELETE', `/streams/${denmark}`, { auth: admin }));
    expectError(await call(server, 'DELETE', `/streams/${denmark}`, { auth: admin }), 400, 'BAD_REQUEST', 'Channel is already deactivated');
    expectError(await call(server, 'GET', `/streams/${denmark}`, { auth: other }), 400, 'BAD_REQUEST', 'Invalid channel ID');
  });

  it('delivers subscription and stream events to a long-poll', async () => {
    const { server, member, other } = await setup();
    const registered = expectSuccess(
      await call(server, 'POST', '/register', {
        auth: other,
        body: form({ event_types: '["stream", "subscription"]', client_capabilities: '{"notification_settings_null": true}' }),
      }),
    );
    expect(registered).toMatchObject({ subscriptions: [], unsubscribed: [], never_subscribed: [], streams: [] });
    const poll = call(server, 'GET', '/events', { auth: other, query: { queue_id: registered.queue_id, last_event_id: '-1' } });
    expectSuccess(
      await call(server, 'POST', '/users/me/subscriptions', {
        auth: member,
        body: multipart({ subscriptions: '[{"name": "Denmark"}]', principals: JSON.stringify([member.id, other.id]) }),
      }),
    );
    const { events } = expectSuccess(await poll);
    // A waiting poll is answered after the publishing turn: both events of the subscribe come in
    // its answer, or the second one in the next poll.
    const more = expectSuccess(
      await call(server, 'GET', '/events', { auth: other, query: { queue_id: registered.queue_id, last_event_id: String(events.at(-1).id), dont_block: 'true' } }),
    );
    const all = [...events, ...more.events];
    expect(all.map((e: { type: string; op: string }) => `${e.type}/${e.op}`)).toEqual(['stream/create', 'subscription/add']);
    expect(all[1]).toEqual(
      expect.objectContaining({ type: 'subscription', op: 'add', subscriptions: [expect.objectContaining({ name: 'Denmark', desktop_notifications: null })] }),
    );
  });
});
