/**
 * Acceptance audit of API.md 2.1 (envelope), 5 (authentication) and 7 (every error code with
 * its HTTP status per FACTS.md 1.1 and its extra fields) over HTTP.
 */
import { createUserAsOperator, doSubscribe, updateRealmAsOperator } from '@teamchat/core';
import { afterEach, describe, expect, it } from 'vitest';
import { makeWorld, must } from '../helpers/core.js';
import { basicAuth, call, closeServers, expectError, expectSuccess, form, startServer } from '../helpers/http.js';

afterEach(closeServers);

async function setup(now?: () => number) {
  const world = await makeWorld({ config: { timers: false }, ...(now ? { clock: { now } } : {}) });
  const member = await world.addUser({ email: 'member@example.com', fullName: 'Mia Member' });
  must(await doSubscribe(world.ctx, world.as(world.owner), { subscriptions: [{"name":"general"}], principals: [world.owner.id,member.id] }));
  const server = await startServer(world);
  const general = (await world.ctx.storage.read((tx) => tx.streams.byName(world.realm.id, 'general')))!.id;
  return { world, server, member, general };
}

describe('2.1 envelope', () => {
  it('success: result and msg "" (plus ignored_parameters_unsupported only for unknown parameters); error: result, msg, code', async () => {
    const { server, member } = await setup();
    expect(expectSuccess(await call(server, 'GET', '/users/me', { auth: member }))).not.toHaveProperty('ignored_parameters_unsupported');
    const ignored = expectSuccess(await call(server, 'PATCH', '/settings', { auth: member, body: form({ enter_sends: 'true', zeta: '1', alpha: '2' }) }));
    expect(ignored.ignored_parameters_unsupported).toEqual(['alpha', 'zeta']);
    const failed = await call(server, 'PATCH', '/settings', { auth: member, body: form({ enter_sends: 'maybe', zeta: '1' }) });
    expectError(failed, 400, 'BAD_REQUEST', 'enter_sends is not valid JSON');
    expect(Object.keys(failed.body).sort()).toEqual(['code', 'msg', 'result']);
  });
});

describe('5 authentication', () => {
  it('Basic with the API email and key, for users and bots; anything else is 401 UNAUTHORIZED', async () => {
    const { world, server, member } = await setup();
    const bot = must(await createUserAsOperator(world.ctx, world.realm, { email: 'bot@example.com', fullName: 'Botty', bot: true, botOwnerId: member.id }));
    expect(expectSuccess(await call(server, 'GET', '/users/me', { auth: bot })).user_id).toBe(bot.id);
    expect(expectSuccess(await call(server, 'GET', '/users/me', { auth: member })).user_id).toBe(member.id);
    expectError(await call(server, 'GET', '/users/me'), 401, 'UNAUTHORIZED', 'Not logged in: API authentication or user session required');
    expectError(await call(server, 'GET', '/users/me', { auth: basicAuth(member.deliveryEmail, bot.apiKey) }), 401, 'UNAUTHORIZED', 'Invalid API key');
    expectError(await call(server, 'GET', '/users/me', { auth: basicAuth(member.deliveryEmail, 'short') }), 401, 'UNAUTHORIZED', 'Malformed API key');
    // GET /server_settings needs none, and ignores broken credentials.
    expectSuccess(await call(server, 'GET', '/server_settings', { auth: 'Basic !!!' }));
  });
});

describe('7 error codes, HTTP statuses and extra fields', () => {
  it('STREAM_DOES_NOT_EXIST (400, stream_id) from PATCH /scheduled_messages; BAD_REQUEST for an invalid user ID', async () => {
    const { world, server, member, general } = await setup();
    const when = Math.trunc(world.ctx.clock.now() / 1000) + 3600;
    const id = expectSuccess(
      await call(server, 'POST', '/scheduled_messages', { auth: member, body: form({ type: 'stream', to: String(general), topic: 't', content: 'later', scheduled_delivery_timestamp: String(when) }) }),
    ).scheduled_message_id;
    expectError(
      await call(server, 'PATCH', `/scheduled_messages/${id}`, { auth: member, body: form({ type: 'stream', to: '9999', topic: 't' }) }),
      400,
      'STREAM_DOES_NOT_EXIST',
      "Channel with ID '9999' does not exist",
      { stream_id: 9999 },
    );
    const dm = await call(server, 'PATCH', `/scheduled_messages/${id}`, { auth: member, body: form({ type: 'direct', to: '[9999]' }) });
    expectError(dm, 400, 'BAD_REQUEST', /9999/);
  });

  it('INVITATION_FAILED (400) with daily_limit_reached, errors, license_limit_reached and sent_invitations', async () => {
    const { server, member } = await setup();
    const response = await call(server, 'POST', '/invites', { auth: member, body: form({ invitee_emails: 'new@example.com, member@example.com', stream_ids: '[]' }) });
    expectError(response, 400, 'INVITATION_FAILED', /./, {
      daily_limit_reached: false,
      license_limit_reached: false,
      sent_invitations: true,
      errors: [['member@example.com', expect.any(String), false]],
    });
  });

  it('UNAUTHORIZED_PRINCIPAL (400) for a non-administrator deleting a topic', async () => {
    const { server, member, general } = await setup();
    expectError(
      await call(server, 'POST', `/streams/${general}/delete_topic`, { auth: member, body: form({ topic_name: 't' }) }),
      400,
      'UNAUTHORIZED_PRINCIPAL',
      'Must be an organization administrator',
    );
  });

  it('REACTION_DOES_NOT_EXIST (400); NOT_FOUND (404) for an unknown navigation view', async () => {
    const { world, server, member } = await setup();
    const id = expectSuccess(await call(server, 'POST', '/messages', { auth: world.owner, body: form({ type: 'stream', to: 'general', topic: 't', content: 'hi' }) })).id;
    expectError(await call(server, 'DELETE', `/messages/${id}/reactions`, { auth: member, body: form({ emoji_name: 'tada' }) }), 400, 'REACTION_DOES_NOT_EXIST', "Reaction doesn't exist.");
    expectError(await call(server, 'PATCH', '/navigation_views/narrow/is/nothing', { auth: member, body: form({ is_pinned: 'true' }) }), 404, 'NOT_FOUND', /./);
  });

  it('MOVE_MESSAGES_TIME_LIMIT_EXCEEDED (400) with first_message_id_allowed_to_move and the totals', async () => {
    let now = Date.UTC(2030, 0, 1);
    const { world, server, member } = await setup(() => now);
    must(await updateRealmAsOperator(world.ctx, world.realm, { settings: { move_messages_within_stream_limit_seconds: 3600 } }));
    const send = async () =>
      expectSuccess(await call(server, 'POST', '/messages', { auth: member, body: form({ type: 'stream', to: 'general', topic: 'old', content: 'hi' }) })).id as number;
    const first = await send();
    now += 2 * 3600 * 1000;
    const second = await send();
    expectError(
      await call(server, 'PATCH', `/messages/${second}`, { auth: member, body: form({ topic: 'new', propagate_mode: 'change_all' }) }),
      400,
      'MOVE_MESSAGES_TIME_LIMIT_EXCEEDED',
      /./,
      { first_message_id_allowed_to_move: second, total_messages_allowed_to_move: 1, total_messages_in_topic: 2 },
    );
    expect(first).toBeLessThan(second);
  });
});
