/** The Notification Bot over HTTP: cross_realm_bots, no login, announce=true and move breadcrumbs. */
import { doSubscribe, NOTIFICATION_BOT_EMAIL } from '@teamchat/core/internal';
import { afterEach, expect, it } from 'vitest';
import { makeWorld, must } from '../helpers/core.js';
import { basicAuth, call, closeServers, expectError, expectSuccess, form, startServer } from '../helpers/http.js';
import { setRealmSettings, storedBot } from '../core/notification-bot-helpers.js';

afterEach(closeServers);

it('announces a new channel, leaves breadcrumbs on a move, lists the bot in cross_realm_bots, and refuses its key', async () => {
  const world = await makeWorld({ config: { timers: false } });
  must(await doSubscribe(world.ctx, world.as(world.owner), { subscriptions: [{"name":"announcements"}] }));
  await setRealmSettings(world, { new_stream_announcements_stream_id: 1 });
  const server = await startServer(world);
  const owner = world.owner;

  expectSuccess(await call(server, 'POST', '/users/me/subscriptions', { auth: owner, body: form({ subscriptions: '[{"name":"design"}]', announce: 'true' }) }));
  const sent = expectSuccess(await call(server, 'POST', '/messages', { auth: owner, body: form({ type: 'stream', to: 'design', topic: 'old', content: 'hi' }) }));
  expectSuccess(await call(server, 'PATCH', `/messages/${sent.id}`, { auth: owner, body: form({ topic: 'new', propagate_mode: 'change_all', send_notification_to_old_thread: 'true' }) }));
  expectError(await call(server, 'PATCH', `/messages/${sent.id}`, { auth: owner, body: form({ topic: 'x', send_notification_to_old_thread: 'maybe' }) }), 400, 'BAD_REQUEST', 'send_notification_to_old_thread is not valid JSON');

  const page = expectSuccess(await call(server, 'GET', '/messages', { auth: owner, query: { anchor: 'newest', num_before: '10', num_after: '0', apply_markdown: 'false' } }));
  const bot = (await storedBot(world))!;
  expect(page.messages.filter((m: { sender_id: number }) => m.sender_id === bot.id).map((m: { subject: string; content: string }) => [m.subject, m.content])).toEqual([
    ['new channels', `@_**Olivia Owner|${owner.id}** created a new channel #**design**.`],
    ['new', `This topic was moved here from #**design>old** by @_**Olivia Owner|${owner.id}**.`],
    ['old', `This topic was moved to #**design>new** by @_**Olivia Owner|${owner.id}**.`],
  ]);

  const state = expectSuccess(await call(server, 'POST', '/register', { auth: owner, body: form({ fetch_event_types: '["realm_user"]' }) }));
  expect(state.cross_realm_bots).toEqual([expect.objectContaining({ user_id: bot.id, email: NOTIFICATION_BOT_EMAIL, is_system_bot: true, full_name: 'Notification Bot' })]);
  expect(state.realm_users.map((u: { user_id: number }) => u.user_id)).toEqual([owner.id]);
  expectError(await call(server, 'GET', '/users/me', { auth: basicAuth(NOTIFICATION_BOT_EMAIL, bot.apiKey) }), 401, 'UNAUTHORIZED', 'Invalid API key');
  expectError(await call(server, 'POST', '/users/me/subscriptions', { body: form({ subscriptions: '[{"name":"x"}]', announce: 'true' }) }), 401, 'UNAUTHORIZED', 'Not logged in: API authentication or user session required');
});
