/** The bot endpoints over HTTP: form and multipart input, envelopes and statuses, a bot's own credentials, and an outgoing webhook end to end. */
import { outgoingWebhooksSettled } from '@teamchat/core/internal';
import { afterEach, describe, expect, it } from 'vitest';
import { makeWorld } from '../helpers/core.js';
import { basicAuth, call, closeServers, expectError, expectSuccess, form, multipart, startServer } from '../helpers/http.js';
import { hookServer, reply } from '../core/bots-outgoing-helpers.js';

afterEach(closeServers);

async function setup(options: Parameters<typeof makeWorld>[0] = {}) {
  const world = await makeWorld(options);
  const member = await world.addUser({ email: 'mel@example.com', fullName: 'Mel Member' });
  const other = await world.addUser({ email: 'otto@example.com', fullName: 'Otto Other' });
  const guest = await world.addUser({ email: 'gus@example.com', fullName: 'Gus Guest', role: 600 });
  const server = await startServer(world);
  return { world, member, other, guest, server };
}

describe('bots over HTTP', () => {
  it('creates (multipart, as zulip-js sends), lists, edits, rotates the key and deactivates', async () => {
    const { server, member } = await setup();
    const created = expectSuccess(
      await call(server, 'POST', '/bots', { auth: member, body: multipart({ full_name: 'Helper', short_name: 'helper', bot_type: '1', default_all_public_streams: 'true' }) }),
    );
    expect(created).toEqual({
      result: 'success',
      msg: '',
      user_id: expect.any(Number),
      api_key: expect.stringMatching(/^[A-Za-z0-9]{32}$/),
      avatar_url: expect.any(String),
      default_sending_stream: null,
      default_events_register_stream: null,
      default_all_public_streams: true,
    });
    const botAuth = basicAuth('helper-bot@chat.example.com', created.api_key);
    expect(expectSuccess(await call(server, 'GET', '/users/me', { auth: botAuth }))).toMatchObject({ user_id: created.user_id, is_bot: true, bot_type: 1 });
    // A bot may not manage bots.
    expectError(await call(server, 'GET', '/bots', { auth: botAuth }), 400, 'BAD_REQUEST', 'This endpoint does not accept bot requests.');

    const listed = expectSuccess(await call(server, 'GET', '/bots', { auth: member }));
    expect(listed.bots).toEqual([expect.objectContaining({ username: 'helper-bot@chat.example.com', full_name: 'Helper', api_key: created.api_key })]);

    const patched = expectSuccess(await call(server, 'PATCH', `/bots/${created.user_id}`, { auth: member, body: form({ full_name: 'Helpful', default_all_public_streams: 'false' }) }));
    expect(patched).toMatchObject({ full_name: 'Helpful', default_all_public_streams: false, bot_owner: 'mel@example.com', service_interface: 1, service_payload_url: null, config_data: null });

    const rotated = expectSuccess(await call(server, 'POST', `/bots/${created.user_id}/api_key/regenerate`, { auth: member }));
    expectError(await call(server, 'GET', '/users/me', { auth: botAuth }), 401, 'UNAUTHORIZED', 'Invalid API key');
    const newAuth = basicAuth('helper-bot@chat.example.com', rotated.api_key);
    expectSuccess(await call(server, 'GET', '/users/me', { auth: newAuth }));

    expectSuccess(await call(server, 'DELETE', `/bots/${created.user_id}`, { auth: member }));
    expectError(await call(server, 'GET', '/users/me', { auth: newAuth }), 401, 'UNAUTHORIZED', 'Account is deactivated');
    expect(expectSuccess(await call(server, 'GET', '/bots', { auth: member })).bots).toEqual([]);
  });

  it('bad input is a 4xx in the error envelope, never a 500', async () => {
    const { server, member, other, guest } = await setup();
    const post = (values: Record<string, string>, auth = member) => call(server, 'POST', '/bots', { auth, body: form(values) });
    expectError(await post({ short_name: 'x' }), 400, 'REQUEST_VARIABLE_MISSING', "Missing 'full_name' argument");
    expectError(await post({ full_name: 'X Bot' }), 400, 'REQUEST_VARIABLE_MISSING', "Missing 'short_name' argument");
    expectError(await post({ full_name: 'X Bot', short_name: 'x', bot_type: 'abc' }), 400, 'BAD_REQUEST', 'bot_type is not valid JSON');
    expectError(await post({ full_name: 'X Bot', short_name: 'x', bot_type: '4' }), 400, 'BAD_REQUEST', 'Embedded bots are not enabled.');
    expectError(await post({ full_name: 'X Bot', short_name: 'x', bot_type: '3', payload_url: '"nope"' }), 400, 'BAD_REQUEST', 'payload_url is not a URL');
    expectError(await post({ full_name: 'X Bot', short_name: 'x', config_data: '[1]' }), 400, 'BAD_REQUEST', 'config_data is not a dict');
    expectError(await post({ full_name: 'X'.repeat(500), short_name: 'x' }), 400, 'BAD_REQUEST', 'Name too long!');
    expectError(await post({ full_name: 'Guest Bot', short_name: 'g' }, guest), 400, 'BAD_REQUEST', 'Not allowed for guest users');
    expectError(await call(server, 'POST', '/bots', { body: form({ full_name: 'Anon Bot', short_name: 'anon' }) }), 401, 'UNAUTHORIZED', /Not logged in/);

    const bot = expectSuccess(await post({ full_name: 'Mine', short_name: 'mine' }));
    expectError(await post({ full_name: 'Mine', short_name: 'mine2' }), 400, 'BAD_REQUEST', 'Name is already in use.');
    expectError(await call(server, 'PATCH', `/bots/${bot.user_id}`, { auth: other, body: form({ full_name: 'Theirs' }) }), 400, 'BAD_REQUEST', 'Insufficient permission');
    expectError(await call(server, 'PATCH', '/bots/999999', { auth: member, body: form({ full_name: 'Who' }) }), 400, 'BAD_REQUEST', 'No such bot');
    expectError(await call(server, 'PATCH', '/bots/abc', { auth: member, body: form({ full_name: 'Who' }) }), 400, 'BAD_REQUEST', 'bot_id is not an integer');
    expectError(await call(server, 'PATCH', `/bots/${bot.user_id}`, { auth: member, body: form({ bot_owner_id: '"x"' }) }), 400, 'BAD_REQUEST', 'bot_owner_id is not an integer');
    expectError(await call(server, 'PATCH', `/bots/${bot.user_id}`, { auth: member, body: form({ role: '100' }) }), 400, 'UNAUTHORIZED_PRINCIPAL', 'Must be an organization owner');
    expectError(await call(server, 'DELETE', `/bots/${member.id}`, { auth: member }), 400, 'BAD_REQUEST', 'No such bot');
    expectError(await call(server, 'POST', `/bots/${bot.user_id}/api_key/regenerate`, { auth: other }), 400, 'BAD_REQUEST', 'Insufficient permission');
    const wrong = await call(server, 'PUT', '/bots', { auth: member });
    expect(wrong.status).toBe(405);
    expect(wrong.body).toEqual({ result: 'error', msg: 'Method Not Allowed', allowed_methods: ['GET', 'POST'] });
  });

  it('an incoming webhook bot may not use the API at all', async () => {
    const { server, member } = await setup();
    const hook = expectSuccess(await call(server, 'POST', '/bots', { auth: member, body: form({ full_name: 'Hook', short_name: 'hook', bot_type: '2' }) }));
    expectError(
      await call(server, 'GET', '/bots', { auth: basicAuth('hook-bot@chat.example.com', hook.api_key) }),
      401,
      'UNAUTHORIZED',
      'This API is not available to incoming webhook bots.',
    );
  });

  it('an outgoing webhook bot answers a message sent over HTTP', async () => {
    const hook = await hookServer();
    try {
      const { server, world, member } = await setup({ outgoingWebhooks: { timeoutMs: 1_000 } });
      hook.answer = reply(200, { content: 'hello from the hook' });
      const bot = expectSuccess(
        await call(server, 'POST', '/bots', { auth: member, body: form({ full_name: 'Echo', short_name: 'echo', bot_type: '3', payload_url: JSON.stringify(hook.url) }) }),
      );
      expectSuccess(await call(server, 'POST', '/messages', { auth: member, body: form({ type: 'direct', to: JSON.stringify([bot.user_id]), content: 'hi echo' }) }));
      await outgoingWebhooksSettled(world.ctx);
      expect(JSON.parse(hook.received[0]!.body)).toMatchObject({ data: 'hi echo', trigger: 'direct_message', bot_email: 'echo-bot@chat.example.com' });
      const page = expectSuccess(await call(server, 'GET', '/messages', { auth: member, query: { anchor: 'newest', num_before: '1', num_after: '0', apply_markdown: 'false' } }));
      expect(page.messages[0]).toMatchObject({ sender_id: bot.user_id, content: 'hello from the hook', client: 'OutgoingWebhookResponse' });
    } finally {
      await hook.close();
    }
  });
});
