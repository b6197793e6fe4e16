/** POST /messages' automatic_new_visibility_policy over HTTP, and the settings that drive it. */
import { doSubscribe } from '@teamchat/core';
import { afterEach, expect, it } from 'vitest';
import { makeWorld, must } from '../helpers/core.js';
import { call, closeServers, expectError, expectSuccess, form, startServer } from '../helpers/http.js';

afterEach(closeServers);

it('answers automatic_new_visibility_policy only when sending changed the topic policy; bad setting values are 400', async () => {
  const world = await makeWorld({ config: { timers: false } });
  const bob = await world.addUser({ email: 'bob@example.com', fullName: 'Bob Builder' });
  must(await doSubscribe(world.ctx, world.as(world.owner), { subscriptions: [{"name":"general"}], principals: [world.owner.id,bob.id] }));
  const server = await startServer(world);
  const post = (topic: string) => call(server, 'POST', '/messages', { auth: bob, body: form({ type: 'stream', to: 'general', topic, content: 'hi' }) });

  const url = (id: number, topic: string) => `http://chat.example.com/#narrow/channel/1-general/topic/${topic}/near/${id}`;
  expect(expectSuccess(await post('new'))).toEqual({
    result: 'success',
    msg: '',
    id: 1,
    message_url: url(1, 'new'),
    message_link: `[#general > new @ 💬](${url(1, 'new')})`,
    automatic_new_visibility_policy: 3,
  });
  expect(expectSuccess(await post('new'))).not.toHaveProperty('automatic_new_visibility_policy');

  // Muting the channel: the default unmutes the topic on send (2).
  expectSuccess(
    await call(server, 'POST', '/users/me/subscriptions/properties', {
      auth: bob,
      body: form({ subscription_data: JSON.stringify([{ stream_id: 1, property: 'is_muted', value: true }]) }),
    }),
  );
  expectSuccess(await call(server, 'PATCH', '/settings', { auth: bob, body: form({ automatically_follow_topics_policy: '4' }) }));
  expect(expectSuccess(await post('other')).automatic_new_visibility_policy).toBe(2);
  expectSuccess(await call(server, 'PATCH', '/settings', { auth: bob, body: form({ automatically_unmute_topics_in_muted_streams_policy: '4' }) }));
  expect(expectSuccess(await post('third'))).not.toHaveProperty('automatic_new_visibility_policy');

  expectError(
    await call(server, 'PATCH', '/settings', { auth: bob, body: form({ automatically_follow_topics_policy: '0' }) }),
    400,
    'BAD_REQUEST',
    'Invalid automatically_follow_topics_policy: Value error, Not in the list of possible values',
  );
});
