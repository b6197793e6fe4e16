/** POST /user_topics, the legacy muted_topics endpoint and the new narrow operators over HTTP: statuses, envelopes, events. */
import { doSubscribe } from '@teamchat/core';
import { afterEach, describe, expect, it } from 'vitest';
import { makeWorld, must } from '../helpers/core.js';
import { call, closeServers, expectError, expectSuccess, form, startServer } from '../helpers/http.js';

afterEach(closeServers);

async function setup() {
  const world = await makeWorld({ config: { timers: false } });
  const member = await world.addUser({ email: 'mel@example.com', fullName: 'Mel Member' });
  must(await doSubscribe(world.ctx, world.as(world.owner), { subscriptions: [{"name":"general"}], principals: [world.owner.id, member.id] }));
  const general = (await world.ctx.storage.read((tx) => tx.streams.byName(world.realm.id, 'general')))!;
  const server = await startServer(world);
  return { server, world, member, general };
}

describe('user topics over HTTP', () => {
  it('POST /user_topics sets a policy, sends user_topic, and is:followed finds the topic', async () => {
    const { server, world, member, general } = await setup();
    const queue = expectSuccess(await call(server, 'POST', '/register', { auth: member, body: form({ event_types: '["user_topic"]' }) })).queue_id;
    expectSuccess(await call(server, 'POST', '/messages', { auth: world.owner, body: form({ type: 'stream', to: 'general', topic: 'lunch', content: 'hi @**Mel Member**' }) }));
    expect(expectSuccess(await call(server, 'POST', '/user_topics', { auth: member, body: form({ stream_id: String(general.id), topic: 'lunch', visibility_policy: '3' }) }))).toEqual({
      result: 'success',
      msg: '',
    });
    const events = expectSuccess(await call(server, 'GET', '/events', { auth: member, query: { queue_id: queue, dont_block: 'true' } })).events;
    expect(events.map(({ id: _id, ...e }: { id: number }) => e)).toEqual([
      { type: 'user_topic', stream_id: general.id, topic_name: 'lunch', last_updated: expect.any(Number), visibility_policy: 3 },
    ]);
    const narrow = (terms: unknown) => ({ anchor: 'oldest', num_before: '0', num_after: '10', narrow: JSON.stringify(terms) });
    expect(expectSuccess(await call(server, 'GET', '/messages', { auth: member, query: narrow([['is', 'followed']]) })).messages).toHaveLength(1);
    expect(expectSuccess(await call(server, 'GET', '/messages', { auth: world.owner, query: narrow([['mentions', member.id]]) })).messages).toHaveLength(1);
    expectError(await call(server, 'GET', '/messages', { auth: member, query: narrow([['mentions', 'nobody']]) }), 400, 'BAD_NARROW', 'Invalid narrow operator: unknown user');
  });

  it('POST /user_topics errors: bad policy, unknown channel, unauthenticated', async () => {
    const { server, member, general } = await setup();
    expectError(await call(server, 'POST', '/user_topics', { auth: member, body: form({ stream_id: String(general.id), topic: 'x', visibility_policy: '7' }) }), 400, 'BAD_REQUEST', 'Invalid visibility_policy');
    expectError(await call(server, 'POST', '/user_topics', { auth: member, body: form({ stream_id: '4242', topic: 'x', visibility_policy: '1' }) }), 400, 'BAD_REQUEST', 'Invalid channel ID');
    expectError(await call(server, 'POST', '/user_topics', { body: form({ stream_id: String(general.id), topic: 'x', visibility_policy: '1' }) }), 401, 'UNAUTHORIZED', /API authentication/);
  });

  it('PATCH /users/me/subscriptions/muted_topics mutes and unmutes; its errors', async () => {
    const { server, member } = await setup();
    expect(expectSuccess(await call(server, 'PATCH', '/users/me/subscriptions/muted_topics', { auth: member, body: form({ stream: 'general', topic: 'lunch', op: 'add' }) }))).toEqual({
      result: 'success',
      msg: '',
    });
    const state = expectSuccess(await call(server, 'POST', '/register', { auth: member, body: form({ fetch_event_types: '["muted_topics"]' }) }));
    expect(state.muted_topics).toEqual([['general', 'lunch', expect.any(Number)]]);
    expectSuccess(await call(server, 'PATCH', '/users/me/subscriptions/muted_topics', { auth: member, body: form({ stream: 'general', topic: 'lunch', op: 'remove' }) }));
    expectError(await call(server, 'PATCH', '/users/me/subscriptions/muted_topics', { auth: member, body: form({ stream: 'nowhere', topic: 'lunch', op: 'remove' }) }), 400, 'BAD_REQUEST', 'Topic is not muted');
    expectError(await call(server, 'PATCH', '/users/me/subscriptions/muted_topics', { auth: member, body: form({ topic: 'lunch', op: 'add' }) }), 400, 'BAD_REQUEST', "Missing 'stream_id' argument");
  });
});
