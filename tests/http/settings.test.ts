/** PATCH /settings and the user_settings register section over HTTP. */
import type { User } from '@teamchat/core';
import { afterEach, describe, expect, it } from 'vitest';
import { makeWorld } from '../helpers/core.js';
import {
  call,
  closeServers,
  expectError,
  expectSuccess,
  form,
  multipart,
  startServer,
  type TestServer,
} from '../helpers/http.js';

afterEach(closeServers);

async function start(): Promise<{ server: TestServer; member: User }> {
  const world = await makeWorld({ config: { timers: false } });
  const member = await world.addUser({ email: 'member@example.com', fullName: 'Mel Member', password: 'mel-password' });
  return { server: await startServer(world), member };
}

const patch = (server: TestServer, user: User, values: Record<string, string>) =>
  call(server, 'PATCH', '/settings', { auth: user, body: form(values) });

async function userSettings(server: TestServer, user: User) {
  const body = expectSuccess(
    await call(server, 'POST', '/register', {
      auth: user,
      body: form({ fetch_event_types: '["user_settings"]', client_capabilities: '{"user_settings_object": true}' }),
    }),
  );
  return body.user_settings;
}

describe('PATCH /settings over HTTP', () => {
  it('changes settings sent as form values (JSON for non-strings) and answers with a bare success', async () => {
    const { server, member } = await start();
    const response = await patch(server, member, {
      enter_sends: 'true',
      color_scheme: '2',
      emojiset: 'text',
      default_language: 'de',
      timezone: 'Europe/Paris',
      full_name: 'Melanie Member',
    });
    expect(expectSuccess(response)).toEqual({ result: 'success', msg: '' });
    expect(await userSettings(server, member)).toMatchObject({
      enter_sends: true,
      color_scheme: 2,
      emojiset: 'text',
      default_language: 'de',
      timezone: 'Europe/Paris',
    });
    const me = expectSuccess(await call(server, 'GET', '/users/me', { auth: member }));
    expect(me).toMatchObject({ full_name: 'Melanie Member', timezone: 'Europe/Paris' });
  });

  it('reads multipart bodies and query-string parameters too', async () => {
    const { server, member } = await start();
    expectSuccess(await call(server, 'PATCH', '/settings', { auth: member, body: multipart({ web_home_view: 'all_messages' }) }));
    expectSuccess(await call(server, 'PATCH', '/settings', { auth: member, query: { user_list_style: '1' } }));
    expect(await userSettings(server, member)).toMatchObject({ web_home_view: 'all_messages', user_list_style: 1 });
  });

  it('lists unknown parameters, the read-only settings among them, in ignored_parameters_unsupported', async () => {
    const { server, member } = await start();
    const body = expectSuccess(
      await patch(server, member, { invalid_setting: 'value', emojiset_choices: '[]', dense_mode: 'true', enter_sends: 'true' }),
    );
    expect(body.ignored_parameters_unsupported).toEqual(['dense_mode', 'emojiset_choices', 'invalid_setting']);
    expect((await userSettings(server, member)).enter_sends).toBe(true);
  });

  it('words JSON-in-form errors as the reference does', async () => {
    const { server, member } = await start();
    const cases: [Record<string, string>, string][] = [
      [{ enter_sends: 'True' }, 'enter_sends is not valid JSON'],
      [{ enter_sends: '"true"' }, 'enter_sends is not a boolean'],
      [{ color_scheme: '"2"' }, 'color_scheme is not an integer'],
      [{ color_scheme: '[2' }, 'color_scheme is not valid JSON'],
      [{ color_scheme: '7' }, 'Invalid color_scheme: Value error, Not in the list of possible values'],
      [{ web_font_size_px: '99' }, 'web_font_size_px is too large'],
      [{ timezone: 'Nowhere/Special' }, 'Invalid timezone: Value error, Not a recognized time zone'],
      [{ default_language: 'klingon' }, 'Invalid default_language'],
      [{ notification_sound: 'gong' }, "Invalid notification sound 'gong'"],
      [{ email_notifications_batching_period_seconds: '-5' }, 'Invalid email batching period: -5 seconds'],
      [{ full_name: 'A' }, 'Name too short!'],
      [{ old_password: 'nope', new_password: 'new-password' }, 'Wrong password!'],
      [{ email: 'other@example.com' }, 'Email address changes are disabled in this organization.'],
    ];
    for (const [values, msg] of cases) {
      expectError(await patch(server, member, { ...values, unknown: 'x' }), 400, 'BAD_REQUEST', msg);
    }
    expect(await userSettings(server, member)).toMatchObject({ enter_sends: false, color_scheme: 1, timezone: '' });
  });

  it('changes the password used by fetch_api_key', async () => {
    const { server, member } = await start();
    expectSuccess(await patch(server, member, { old_password: 'mel-password', new_password: 'fresh-password' }));
    const login = (password: string) =>
      call(server, 'POST', '/fetch_api_key', { body: form({ username: 'member@example.com', password }) });
    expect(expectSuccess(await login('fresh-password'))).toMatchObject({ api_key: member.apiKey, user_id: member.id });
    expectError(await login('mel-password'), 401, 'AUTHENTICATION_FAILED', 'Your username or password is incorrect');
  });

  it('needs authentication and only accepts PATCH', async () => {
    const { server } = await start();
    expectError(
      await call(server, 'PATCH', '/settings', { body: form({ enter_sends: 'true' }) }),
      401,
      'UNAUTHORIZED',
      'Not logged in: API authentication or user session required',
    );
    const get = await call(server, 'GET', '/settings', { auth: server.world.owner });
    expect(get.status).toBe(405);
  });

  it('delivers user_settings and realm_user events to registered queues', async () => {
    const { server, member } = await start();
    const register = async (user: User) =>
      expectSuccess(
        await call(server, 'POST', '/register', {
          auth: user,
          body: form({ event_types: '["user_settings", "realm_user"]', fetch_event_types: '["user_settings"]' }),
        }),
      ).queue_id as string;
    const mine = await register(member);
    const theirs = await register(server.world.owner);
    expectSuccess(await patch(server, member, { default_language: 'de', timezone: 'UTC' }));

    const poll = async (user: User, queueId: string) =>
      expectSuccess(
        await call(server, 'GET', '/events', {
          auth: user,
          query: { queue_id: queueId, last_event_id: '-1', dont_block: 'true' },
        }),
      ).events;
    expect(await poll(member, mine)).toEqual([
      { type: 'user_settings', op: 'update', property: 'default_language', value: 'de', language_name: 'Deutsch', id: 0 },
      { type: 'user_settings', op: 'update', property: 'timezone', value: 'UTC', id: 1 },
      {
        type: 'realm_user',
        op: 'update',
        person: { user_id: member.id, email: 'member@example.com', timezone: 'UTC' },
        id: 2,
      },
    ]);
    expect(await poll(server.world.owner, theirs)).toEqual([
      {
        type: 'realm_user',
        op: 'update',
        person: { user_id: member.id, email: 'member@example.com', timezone: 'UTC' },
        id: 0,
      },
    ]);
  });

  it('sends the pre-FL 89 keys at the top level of register without user_settings_object', async () => {
    const { server, member } = await start();
    const body = expectSuccess(
      await call(server, 'POST', '/register', { auth: member, body: form({ fetch_event_types: '["user_settings"]' }) }),
    );
    expect(body).toMatchObject({ enter_sends: false, emojiset: 'google', default_language: 'en' });
    expect(body.user_settings.emojiset).toBe('google');
  });
});
