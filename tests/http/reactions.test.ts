/** Reactions over HTTP: form bodies for POST and DELETE, statuses and envelopes, events to a poll. */
import { doSubscribe } from '@teamchat/core';
import { afterEach, describe, expect, it } from 'vitest';
import { makeWorld, must } from '../helpers/core.js';
import { call, closeServers, expectError, expectSuccess, form, multipart, startServer } from '../helpers/http.js';

afterEach(closeServers);

async function setup() {
  const world = await makeWorld();
  const member = await world.addUser({ email: 'mel@example.com', fullName: 'Mel Member' });
  const outsider = await world.addUser({ email: 'otto@example.com', fullName: 'Otto Other' });
  must(await doSubscribe(world.ctx, world.as(world.owner), { subscriptions: [{"name":"general"}], principals: [world.owner.id,member.id] }));
  must(await doSubscribe(world.ctx, world.as(world.owner), { subscriptions: [{"name":"secret"}], invite_only: true }));
  const server = await startServer(world);
  const sent = expectSuccess(await call(server, 'POST', '/messages', { auth: world.owner, body: form({ type: 'stream', to: 'general', topic: 't', content: 'hi' }) }));
  const secret = expectSuccess(await call(server, 'POST', '/messages', { auth: world.owner, body: form({ type: 'stream', to: 'secret', topic: 't', content: 'shh' }) }));
  return { server, world, member, outsider, messageId: sent.id as number, secretId: secret.id as number };
}

describe('POST and DELETE /messages/{id}/reactions', () => {
  it('adds (multipart, as zulip-js sends), shows it on the message, removes (form body), with events to a poll', async () => {
    const { server, world, member, messageId } = await setup();
    const queue = expectSuccess(await call(server, 'POST', '/register', { auth: world.owner, body: form({ event_types: '["reaction"]' }) })).queue_id;
    expect(expectSuccess(await call(server, 'POST', `/messages/${messageId}/reactions`, { auth: member, body: multipart({ emoji_name: 'tada' }) }))).toEqual({
      result: 'success',
      msg: '',
    });
    const got = expectSuccess(await call(server, 'GET', `/messages/${messageId}`, { auth: member }));
    expect(got.message.reactions).toEqual([{ emoji_name: 'tada', emoji_code: '1f389', reaction_type: 'unicode_emoji', user_id: member.id }]);
    expectSuccess(await call(server, 'DELETE', `/messages/${messageId}/reactions`, { auth: member, body: form({ emoji_code: '1f389', reaction_type: 'unicode_emoji' }) }));
    const events = expectSuccess(await call(server, 'GET', '/events', { auth: world.owner, query: { queue_id: queue, dont_block: 'true' } })).events;
    const body = { user_id: member.id, message_id: messageId, emoji_name: 'tada', emoji_code: '1f389', reaction_type: 'unicode_emoji' };
    expect(events).toEqual([
      { id: 0, type: 'reaction', op: 'add', ...body },
      { id: 1, type: 'reaction', op: 'remove', ...body },
    ]);
  });

  it('errors with their codes and statuses', async () => {
    const { server, member, outsider, messageId, secretId } = await setup();
    const path = `/messages/${messageId}/reactions`;
    expectSuccess(await call(server, 'POST', path, { auth: member, body: form({ emoji_name: 'tada' }) }));
    expectError(await call(server, 'POST', path, { auth: member, body: form({ emoji_name: 'tada' }) }), 400, 'REACTION_ALREADY_EXISTS', 'Reaction already exists.');
    expectError(await call(server, 'DELETE', path, { auth: member, body: form({ emoji_name: 'smile' }) }), 400, 'REACTION_DOES_NOT_EXIST', "Reaction doesn't exist.");
    expectError(await call(server, 'DELETE', path, { auth: member, body: form({ emoji_code: 'zzzz' }) }), 400, 'BAD_REQUEST', 'Invalid emoji code.');
    expectError(await call(server, 'DELETE', path, { auth: member }), 400, 'BAD_REQUEST', 'At least one of the following arguments must be present: emoji_name, emoji_code');
    expectError(await call(server, 'POST', path, { auth: member, body: form({}) }), 400, 'REQUEST_VARIABLE_MISSING', "Missing 'emoji_name' argument", { var_name: 'emoji_name' });
    expectError(await call(server, 'POST', path, { auth: member, body: form({ emoji_name: 'nope_nope' }) }), 400, 'BAD_REQUEST', "Emoji 'nope_nope' does not exist");
    expectError(await call(server, 'POST', '/messages/abc/reactions', { auth: member, body: form({ emoji_name: 'tada' }) }), 400, 'BAD_REQUEST', 'message_id is not an integer');
    expectError(await call(server, 'POST', '/messages/424242/reactions', { auth: member, body: form({ emoji_name: 'tada' }) }), 400, 'BAD_REQUEST', 'Invalid message(s)');
    expectError(await call(server, 'POST', `/messages/${secretId}/reactions`, { auth: outsider, body: form({ emoji_name: 'tada' }) }), 400, 'BAD_REQUEST', 'Invalid message(s)');
    expectError(await call(server, 'POST', path, { body: form({ emoji_name: 'tada' }) }), 401, 'UNAUTHORIZED', 'Not logged in: API authentication or user session required');
    const patched = await call(server, 'PATCH', path, { auth: member });
    expect(patched.status).toBe(405);
    expect(patched.body.allowed_methods).toEqual(['DELETE', 'POST']);
  });
});
