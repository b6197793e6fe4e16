/** Reminders over HTTP: success shapes, errors with their statuses, unauthenticated access. */
import { doSendMessage, doSubscribe } from '@teamchat/core';
import { afterEach, expect, it } from 'vitest';
import { makeWorld, must } from '../helpers/core.js';
import { call, closeServers, expectError, expectSuccess, form, startServer } from '../helpers/http.js';

afterEach(closeServers);

it('creates, lists and deletes reminders; bad input, unknown IDs and no credentials are refused', async () => {
  const world = await makeWorld({ config: { timers: false } });
  const bob = await world.addUser({ email: 'bob@example.com', fullName: 'Bob Builder' });
  must(await doSubscribe(world.ctx, world.as(world.owner), { subscriptions: [{"name":"general"}], principals: [world.owner.id,bob.id] }));
  const { id: messageId } = must(await doSendMessage(world.ctx, world.as(world.owner), { type: 'stream', to: 'general', topic: 't', content: 'hi' }));
  const server = await startServer(world);
  const when = Math.trunc(world.ctx.clock.now() / 1000) + 600;
  const created = expectSuccess(
    await call(server, 'POST', '/reminders', { auth: bob, body: form({ message_id: String(messageId), scheduled_delivery_timestamp: String(when), note: 'look' }) }),
  );
  const id = created.reminder_id as number;
  expect(created).toEqual({ result: 'success', msg: '', reminder_id: id });
  const listed = expectSuccess(await call(server, 'GET', '/reminders', { auth: bob }));
  expect(listed).toEqual({
    result: 'success',
    msg: '',
    reminders: [
      {
        reminder_id: id,
        type: 'private',
        to: [bob.id],
        content: expect.stringMatching(/^You requested a reminder for the following message\. Note:\n > look\n\n/),
        rendered_content: expect.stringContaining('<blockquote>'),
        scheduled_delivery_timestamp: when,
        failed: false,
        reminder_target_message_id: messageId,
      },
    ],
  });
  expect(expectSuccess(await call(server, 'GET', '/scheduled_messages', { auth: bob })).scheduled_messages).toEqual([]);
  const post = (values: Record<string, string>) => call(server, 'POST', '/reminders', { auth: bob, body: form(values) });
  expectError(await post({ message_id: String(messageId), scheduled_delivery_timestamp: '1' }), 400, 'BAD_REQUEST', 'Scheduled delivery time must be in the future.');
  expectError(await post({ message_id: '99999', scheduled_delivery_timestamp: String(when) }), 400, 'BAD_REQUEST', 'Invalid message(s)');
  expectError(await post({ scheduled_delivery_timestamp: String(when) }), 400, 'REQUEST_VARIABLE_MISSING', "Missing 'message_id' argument");
  expect((await post({ message_id: 'x', scheduled_delivery_timestamp: String(when) })).status).toBe(400);
  expectError(await call(server, 'GET', '/reminders', {}), 401, 'UNAUTHORIZED', 'Not logged in: API authentication or user session required');
  expectError(await call(server, 'DELETE', `/reminders/${id}`, { auth: world.owner }), 404, 'BAD_REQUEST', 'Reminder does not exist');
  expectSuccess(await call(server, 'DELETE', `/reminders/${id}`, { auth: bob }));
  expectError(await call(server, 'DELETE', `/reminders/${id}`, { auth: bob }), 404, 'BAD_REQUEST', 'Reminder does not exist');
  expect(expectSuccess(await call(server, 'GET', '/reminders', { auth: bob })).reminders).toEqual([]);
});
