/**
 * The flag endpoints over HTTP: JSON inside form values (urlencoded and multipart), the success
 * envelopes, errors with their statuses, and update_message_flags through a long-poll queue.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { makeWorld } from '../helpers/core.js';
import { call, closeServers, expectError, expectSuccess, form, multipart, startServer } from '../helpers/http.js';

afterEach(closeServers);

async function setup() {
  const world = await makeWorld();
  const member = await world.addUser({ email: 'mel@example.com', fullName: 'Mel Member' });
  const other = await world.addUser({ email: 'otto@example.com', fullName: 'Otto Other' });
  const server = await startServer(world);
  const owner = world.owner;
  const subscribe = async (name: string, principals: number[], extra: Record<string, string> = {}) => {
    const body = form({ subscriptions: JSON.stringify([{ name }]), principals: JSON.stringify(principals), ...extra });
    expectSuccess(await call(server, 'POST', '/users/me/subscriptions', { auth: owner, body }));
    return expectSuccess(await call(server, 'GET', '/get_stream_id', { auth: owner, query: { stream: name } })).stream_id as number;
  };
  const general = await subscribe('general', [owner.id, member.id]);
  const secret = await subscribe('secret', [owner.id], { invite_only: 'true' });
  const send = async (to: string, topic: string) =>
    expectSuccess(await call(server, 'POST', '/messages', { auth: owner, body: form({ type: 'stream', to, topic, content: 'hi' }) })).id as number;
  return { server, owner, member, other, general, secret, send };
}

describe('POST /messages/flags', () => {
  it('changes flags and answers the changed IDs, through urlencoded and multipart bodies', async () => {
    const { server, member, general, send } = await setup();
    const one = await send('general', 'lunch');
    const two = await send('general', 'lunch');
    const post = (body: BodyInit) => call(server, 'POST', '/messages/flags', { auth: member, body });
    expect(expectSuccess(await post(form({ messages: `[${one},${two}]`, op: 'add', flag: 'starred' })))).toEqual({ result: 'success', msg: '', messages: [one, two] });
    expect(expectSuccess(await post(multipart({ messages: `[${one}]`, op: 'add', flag: 'starred' })))).toEqual({ result: 'success', msg: '', messages: [] });
    expect(expectSuccess(await post(form({ messages: `[${one}]`, op: 'add', flag: 'read' })))).toEqual({ result: 'success', msg: '', messages: [one] });
    expect(expectSuccess(await post(form({ messages: `[${one}]`, op: 'remove', flag: 'read' })))).toEqual({
      result: 'success',
      msg: '',
      messages: [one],
      ignored_because_not_subscribed_channels: [],
    });
    const page = expectSuccess(
      await call(server, 'GET', '/messages', { auth: member, query: { anchor: 'oldest', num_before: '0', num_after: '5', narrow: JSON.stringify([['channel', general]]) } }),
    );
    expect(page.messages.map((m: { id: number; flags: string[] }) => [m.id, m.flags])).toEqual([
      [one, ['starred']],
      [two, ['starred']],
    ]);
  });

  it('answers errors with the reference’s statuses', async () => {
    const { server, member, send } = await setup();
    const secret = await send('secret', 'plans');
    const post = (values: Record<string, string>) => call(server, 'POST', '/messages/flags', { auth: member, body: form(values) });
    expectError(await post({ messages: '[1]', op: 'add', flag: 'x' }), 400, 'BAD_REQUEST', "Invalid flag: 'x'");
    expectError(await post({ messages: '[1]', op: 'add', flag: 'mentioned' }), 400, 'BAD_REQUEST', "Flag not editable: 'mentioned'");
    expectError(await post({ messages: '[1]', op: 'bogus', flag: 'read' }), 400, 'BAD_REQUEST', "Invalid message flag operation: 'bogus'");
    expectError(await post({ messages: `[${secret}]`, op: 'add', flag: 'starred' }), 400, 'BAD_REQUEST', 'Invalid message(s)');
    expectError(await post({ messages: '[99999]', op: 'add', flag: 'starred' }), 400, 'BAD_REQUEST', 'Invalid message(s)');
    expectError(await post({ messages: '[1', op: 'add', flag: 'read' }), 400, 'BAD_REQUEST', 'messages is not valid JSON');
    expectError(await post({ messages: '["a"]', op: 'add', flag: 'read' }), 400, 'BAD_REQUEST', 'messages[0] is not an integer');
    expectError(await post({ op: 'add', flag: 'read' }), 400, 'REQUEST_VARIABLE_MISSING', "Missing 'messages' argument", { var_name: 'messages' });
    expectError(await call(server, 'POST', '/messages/flags', { body: form({ messages: '[]', op: 'add', flag: 'read' }) }), 401, 'UNAUTHORIZED', 'Not logged in: API authentication or user session required');
    const get = await call(server, 'GET', '/messages/flags', { auth: member });
    expect(get.status).toBe(405);
    expect(get.body.allowed_methods).toEqual(['POST']);
  });

  it('delivers update_message_flags to the actor’s long-poll queue only', async () => {
    const { server, member, other, send } = await setup();
    const id = await send('general', 'lunch');
    const register = async (user: typeof member) =>
      expectSuccess(await call(server, 'POST', '/register', { auth: user, body: form({ event_types: '["update_message_flags"]' }) })).queue_id as string;
    const mine = await register(member);
    const theirs = await register(other);
    const pending = call(server, 'GET', '/events', { auth: member, query: { queue_id: mine, last_event_id: '-1' } });
    expectSuccess(await call(server, 'POST', '/messages/flags', { auth: member, body: form({ messages: `[${id}]`, op: 'add', flag: 'read' }) }));
    expect(expectSuccess(await pending).events).toEqual([
      { type: 'update_message_flags', op: 'add', operation: 'add', flag: 'read', messages: [id], all: false, id: 0 },
    ]);
    const poll = await call(server, 'GET', '/events', { auth: other, query: { queue_id: theirs, last_event_id: '-1', dont_block: 'true' } });
    expect(expectSuccess(poll).events).toEqual([]);
  });
});

describe('POST /messages/flags/narrow', () => {
  it('updates a window of a narrow', async () => {
    const { server, member, general, send } = await setup();
    const one = await send('general', 'lunch');
    const two = await send('general', 'dinner');
    const body = multipart({ anchor: 'oldest', num_before: '0', num_after: '10', narrow: JSON.stringify([{ operator: 'channel', operand: general }]), op: 'add', flag: 'read' });
    expect(expectSuccess(await call(server, 'POST', '/messages/flags/narrow', { auth: member, body }))).toEqual({
      result: 'success',
      msg: '',
      processed_count: 2,
      updated_count: 2,
      first_processed_id: one,
      last_processed_id: two,
      found_oldest: true,
      found_newest: true,
    });
    const unread = form({ anchor: String(two), include_anchor: 'false', num_before: '5', num_after: '0', narrow: '[]', op: 'remove', flag: 'read' });
    expect(expectSuccess(await call(server, 'POST', '/messages/flags/narrow', { auth: member, body: unread }))).toMatchObject({
      processed_count: 1,
      updated_count: 1,
      first_processed_id: one,
      last_processed_id: one,
      ignored_because_not_subscribed_channels: [],
    });
  });

  it('answers errors', async () => {
    const { server, member } = await setup();
    const post = (values: Record<string, string>) => call(server, 'POST', '/messages/flags/narrow', { auth: member, body: form(values) });
    const full = { anchor: 'newest', num_before: '1', num_after: '0', narrow: '[]', op: 'add', flag: 'read' };
    expectError(await post({ ...full, anchor: '5', include_anchor: 'false', num_after: '1' }), 400, 'BAD_REQUEST', 'The anchor can only be excluded at an end of the range');
    expectError(await post({ ...full, narrow: '[["channel","secret"]]' }), 400, 'BAD_NARROW', 'Invalid narrow operator: unknown channel');
    expectError(await post({ ...full, num_before: 'x' }), 400, 'BAD_REQUEST', 'num_before is not valid JSON');
    expectError(await post({ ...full, flag: 'historical' }), 400, 'BAD_REQUEST', "Flag not editable: 'historical'");
    const { anchor: _, ...noAnchor } = full;
    expectError(await post(noAnchor), 400, 'REQUEST_VARIABLE_MISSING', "Missing 'anchor' argument", { var_name: 'anchor' });
  });
});

describe('mark as read', () => {
  it('POST /mark_all_as_read, /mark_stream_as_read and /mark_topic_as_read', async () => {
    const { server, member, general, send } = await setup();
    const lunch = await send('general', 'lunch');
    const dinner = await send('general', 'dinner');
    const unreadIds = async () =>
      expectSuccess(await call(server, 'GET', '/messages', { auth: member, query: { anchor: 'oldest', num_before: '0', num_after: '10', narrow: '[["is","unread"]]' } }))
        .messages.map((m: { id: number }) => m.id);
    expect(await unreadIds()).toEqual([lunch, dinner]);
    expect(expectSuccess(await call(server, 'POST', '/mark_topic_as_read', { auth: member, body: form({ stream_id: String(general), topic_name: 'lunch' }) }))).toEqual({
      result: 'success',
      msg: '',
    });
    expect(await unreadIds()).toEqual([dinner]);
    expect(expectSuccess(await call(server, 'POST', '/mark_stream_as_read', { auth: member, body: form({ stream_id: String(general) }) }))).toEqual({ result: 'success', msg: '' });
    expect(await unreadIds()).toEqual([]);
    await send('general', 'later');
    expect(expectSuccess(await call(server, 'POST', '/mark_all_as_read', { auth: member }))).toEqual({ result: 'success', msg: '', complete: true });
    expect(await unreadIds()).toEqual([]);
  });

  it('answers errors', async () => {
    const { server, member, general, secret } = await setup();
    expectError(await call(server, 'POST', '/mark_stream_as_read', { auth: member, body: form({ stream_id: String(secret) }) }), 400, 'BAD_REQUEST', 'Invalid channel ID');
    expectError(await call(server, 'POST', '/mark_stream_as_read', { auth: member, body: form({}) }), 400, 'REQUEST_VARIABLE_MISSING', "Missing 'stream_id' argument", {
      var_name: 'stream_id',
    });
    expectError(await call(server, 'POST', '/mark_topic_as_read', { auth: member, body: form({ stream_id: String(general), topic_name: 'nope' }) }), 400, 'BAD_REQUEST', "No such topic 'nope'");
    expectError(await call(server, 'POST', '/mark_topic_as_read', { auth: member, body: form({ stream_id: 'x', topic_name: 'nope' }) }), 400, 'BAD_REQUEST', 'stream_id is not valid JSON');
    expectError(await call(server, 'POST', '/mark_all_as_read', {}), 401, 'UNAUTHORIZED', 'Not logged in: API authentication or user session required');
  });
});
