/** POST /user_topics and the legacy PATCH /users/me/subscriptions/muted_topics: policies, events, register sections, errors. */
import { doArchiveStream, doSubscribe, doUpdateMutedTopic, doUpdateUserTopic } from '@teamchat/core';
import { describe, expect, it } from 'vitest';
import { must } from '../helpers/core.js';
import { names, queued, recipientsOf, register } from './channel-helpers.js';
import { expectBadRequest, expectError, secondRealm, T0 } from './fixtures.js';
import { messageWorld } from './message-helpers.js';

const NOW = Math.floor(T0 / 1000);
const setPolicy = (m: Awaited<ReturnType<typeof messageWorld>>, user: Parameters<typeof m.w.as>[0], input: Record<string, unknown>) =>
  doUpdateUserTopic.fromTransport(m.w.ctx, m.w.as(user), input);

describe('POST /user_topics', () => {
  it('sets, changes and removes a policy; sends user_topic and muted_topics to the user only; register lists them', async () => {
    const m = await messageWorld();
    const { w, member, other } = m;
    const queue = await register(w, member, {});
    const named = await register(w, member, { event_types: '["user_topic", "muted_topics"]' });
    const otherQueue = await register(w, other, {});
    m.drain();
    expect(must(await setPolicy(m, member, { stream_id: String(m.general.id), topic: 'Lunch', visibility_policy: '1' }))).toEqual({});
    must(await setPolicy(m, member, { stream_id: String(m.secret.id), topic: 'plans', visibility_policy: '3' }));
    expect(recipientsOf(m.drain(), 'user_topic')).toEqual([[member.id], [member.id]]);
    const events = (await queued(w, member, queue.queue_id)).map(({ id: _id, ...e }) => e);
    expect(events).toEqual([
      { type: 'user_topic', stream_id: m.general.id, topic_name: 'Lunch', last_updated: NOW, visibility_policy: 1 },
      { type: 'muted_topics', muted_topics: [['general', 'Lunch', NOW]] },
      { type: 'user_topic', stream_id: m.secret.id, topic_name: 'plans', last_updated: NOW, visibility_policy: 3 },
      { type: 'muted_topics', muted_topics: [['general', 'Lunch', NOW]] },
    ]);
    // A queue that asked for user_topic by name does not get the legacy event.
    expect((await queued(w, member, named.queue_id)).map((e) => e.type)).toEqual(['user_topic', 'user_topic']);
    expect(await queued(w, other, otherQueue.queue_id)).toEqual([]);

    const state = await register(w, member, { fetch_event_types: '["user_topic", "muted_topics"]' });
    expect(state.user_topics).toEqual([
      { stream_id: m.general.id, topic_name: 'Lunch', last_updated: NOW, visibility_policy: 1 },
      { stream_id: m.secret.id, topic_name: 'plans', last_updated: NOW, visibility_policy: 3 },
    ]);
    expect(state.muted_topics).toBeUndefined();
    expect((await register(w, member, { fetch_event_types: '["muted_topics"]' })).muted_topics).toEqual([['general', 'Lunch', NOW]]);
    expect((await register(w, other, { fetch_event_types: '["user_topic"]' })).user_topics).toEqual([]);

    // Another case of the same topic is the same topic; the row keeps its first spelling.
    must(await setPolicy(m, member, { stream_id: String(m.general.id), topic: 'LUNCH', visibility_policy: '2' }));
    must(await setPolicy(m, member, { stream_id: String(m.secret.id), topic: 'plans', visibility_policy: '0' }));
    expect((await register(w, member, { fetch_event_types: '["user_topic"]' })).user_topics).toEqual([
      { stream_id: m.general.id, topic_name: 'Lunch', last_updated: NOW, visibility_policy: 2 },
    ]);
  });

  it('sends nothing when nothing changes', async () => {
    const m = await messageWorld();
    const { member } = m;
    must(await setPolicy(m, member, { stream_id: String(m.general.id), topic: 'lunch', visibility_policy: '3' }));
    m.drain();
    must(await setPolicy(m, member, { stream_id: String(m.general.id), topic: 'lunch', visibility_policy: '3' }));
    must(await setPolicy(m, member, { stream_id: String(m.general.id), topic: 'never set', visibility_policy: '0' }));
    expect(m.drain()).toEqual([]);
  });

  it('reads the empty topic by its display name and shows it per client capability', async () => {
    const m = await messageWorld();
    const { w, member } = m;
    const legacy = await register(w, member, {});
    const modern = await register(w, member, { client_capabilities: '{"empty_topic_name": true}' });
    must(await setPolicy(m, member, { stream_id: String(m.general.id), topic: 'general chat', visibility_policy: '1' }));
    expect((await queued(w, member, legacy.queue_id))[0]).toMatchObject({ type: 'user_topic', topic_name: 'general chat' });
    expect((await queued(w, member, modern.queue_id))[0]).toMatchObject({ type: 'user_topic', topic_name: '' });
    const state = await register(w, member, { fetch_event_types: '["user_topic"]', client_capabilities: '{"empty_topic_name": true}' });
    expect(state.user_topics).toEqual([{ stream_id: m.general.id, topic_name: '', last_updated: NOW, visibility_policy: 1 }]);
    // Removing it by "" is the same topic.
    must(await setPolicy(m, member, { stream_id: String(m.general.id), topic: '', visibility_policy: '0' }));
    expect((await register(w, member, { fetch_event_types: '["user_topic"]' })).user_topics).toEqual([]);
  });

  it('refuses unknown, inaccessible, archived and other realms\' channels, bad values and missing parameters, writing nothing', async () => {
    const m = await messageWorld();
    const { w, member, other, guest } = m;
    const far = await secondRealm(w.ctx);
    must(await doSubscribe(w.ctx, { realm: far.realm, user: far.owner }, { subscriptions: [{ name: 'far away' }] }));
    const farId = (await w.ctx.storage.read((tx) => tx.streams.byName(far.realm.id, 'far away')))!.id;
    m.drain();
    const base = { topic: 'lunch', visibility_policy: '1' };
    expectBadRequest(await setPolicy(m, other, { ...base, stream_id: String(m.secret.id) }), 'Invalid channel ID');
    expectBadRequest(await setPolicy(m, guest, { ...base, stream_id: String(m.general.id) }), 'Invalid channel ID');
    expectBadRequest(await setPolicy(m, member, { ...base, stream_id: '999999' }), 'Invalid channel ID');
    expectBadRequest(await setPolicy(m, member, { ...base, stream_id: String(farId) }), 'Invalid channel ID');
    expectBadRequest(await setPolicy(m, member, { ...base, stream_id: String(farId), visibility_policy: '0' }), 'Invalid channel ID');
    expectBadRequest(await setPolicy(m, member, { ...base, stream_id: String(m.general.id), visibility_policy: '4' }), 'Invalid visibility_policy');
    expectBadRequest(await setPolicy(m, member, { ...base, stream_id: String(m.general.id), visibility_policy: '"1"' }), 'visibility_policy is not an integer');
    expectBadRequest(await setPolicy(m, member, { ...base, stream_id: 'x' }), 'stream_id is not valid JSON');
    expectBadRequest(await setPolicy(m, member, { ...base, stream_id: String(m.general.id), topic: 'x'.repeat(61) }), 'topic is too long (limit: 60 characters)');
    expectBadRequest(await setPolicy(m, member, { ...base, stream_id: String(m.general.id), topic: 'a\0b' }), 'Topic must not contain null bytes');
    expectError(await setPolicy(m, member, { topic: 'lunch', visibility_policy: '1' }), 'REQUEST_VARIABLE_MISSING', "Missing 'stream_id' argument", 400, { var_name: 'stream_id' });
    expectError(await setPolicy(m, member, { stream_id: String(m.general.id), visibility_policy: '1' }), 'REQUEST_VARIABLE_MISSING', "Missing 'topic' argument", 400, { var_name: 'topic' });
    expectError(await setPolicy(m, null, { ...base, stream_id: String(m.general.id) }), 'UNAUTHORIZED', 'Not logged in: API authentication or user session required', 401);
    must(await doArchiveStream(w.ctx, w.as(w.owner), { stream_id: m.secret.id }));
    m.drain();
    expectBadRequest(await setPolicy(m, member, { ...base, stream_id: String(m.secret.id) }), 'Invalid channel ID');
    expect(m.drain()).toEqual([]);
    expect((await register(w, member, { fetch_event_types: '["user_topic"]' })).user_topics).toEqual([]);
  });

  it('removes a policy in a channel the user has lost, and never lists such a channel\'s rows', async () => {
    const m = await messageWorld();
    const { w, member } = m;
    must(await setPolicy(m, member, { stream_id: String(m.secret.id), topic: 'plans', visibility_policy: '1' }));
    await w.ctx.storage.transaction(async (tx) => {
      await tx.subscriptions.update(w.realm.id, member.id, m.secret.id, { active: false });
      return (await import('neverthrow')).ok(undefined);
    });
    const state = await register(w, member, { fetch_event_types: '["user_topic", "muted_topics"]' });
    expect(state.user_topics).toEqual([]);
    expect((await register(w, member, { fetch_event_types: '["muted_topics"]' })).muted_topics).toEqual([]);
    m.drain();
    expectBadRequest(await setPolicy(m, member, { stream_id: String(m.secret.id), topic: 'plans', visibility_policy: '1' }), 'Invalid channel ID');
    must(await setPolicy(m, member, { stream_id: String(m.secret.id), topic: 'plans', visibility_policy: '0' }));
    const [event, legacy] = m.drain();
    expect(event).toMatchObject({ userIds: [member.id], event: { type: 'user_topic', stream_id: m.secret.id, visibility_policy: 0 } });
    expect(legacy).toMatchObject({ event: { type: 'muted_topics', muted_topics: [] } });
  });
});

describe('PATCH /users/me/subscriptions/muted_topics (legacy)', () => {
  const mute = (m: Awaited<ReturnType<typeof messageWorld>>, user: Parameters<typeof m.w.as>[0], input: Record<string, unknown>) =>
    doUpdateMutedTopic.fromTransport(m.w.ctx, m.w.as(user), input);

  it('mutes by channel name or ID and unmutes; idempotent since FL 170', async () => {
    const m = await messageWorld();
    const { w, member } = m;
    expect(must(await mute(m, member, { stream: 'general', topic: 'lunch', op: 'add' }))).toEqual({});
    must(await mute(m, member, { stream: 'general', topic: 'lunch', op: 'add' }));
    must(await mute(m, member, { stream_id: String(m.secret.id), topic: 'plans', op: 'add' }));
    expect((await register(w, member, { fetch_event_types: '["muted_topics"]' })).muted_topics).toEqual([
      ['general', 'lunch', NOW],
      ['secret', 'plans', NOW],
    ]);
    must(await mute(m, member, { stream_id: String(m.general.id), topic: 'LUNCH', op: 'remove' }));
    must(await mute(m, member, { stream: 'secret', topic: 'plans', op: 'remove' }));
    must(await mute(m, member, { stream: 'secret', topic: 'plans', op: 'remove' }));
    expect((await register(w, member, { fetch_event_types: '["user_topic"]' })).user_topics).toEqual([]);
  });

  it('gives the reference\'s errors', async () => {
    const m = await messageWorld();
    const { other } = m;
    m.drain();
    expectBadRequest(await mute(m, other, { topic: 'lunch', op: 'add' }), "Missing 'stream_id' argument");
    expectError(await mute(m, other, { stream: 'general', stream_id: String(m.general.id), topic: 'lunch', op: 'add' }), 'BAD_REQUEST', 'Unsupported parameter combination: stream_id, stream', 400, {
      parameters: 'stream_id, stream',
    });
    expectBadRequest(await mute(m, other, { stream: 'secret', topic: 'lunch', op: 'add' }), "Invalid channel name 'secret'");
    expectBadRequest(await mute(m, other, { stream: 'nowhere', topic: 'lunch', op: 'add' }), "Invalid channel name 'nowhere'");
    expectBadRequest(await mute(m, other, { stream_id: String(m.secret.id), topic: 'lunch', op: 'add' }), 'Invalid channel ID');
    expectBadRequest(await mute(m, other, { stream: 'nowhere', topic: 'lunch', op: 'remove' }), 'Topic is not muted');
    expectBadRequest(await mute(m, other, { stream_id: '999999', topic: 'lunch', op: 'remove' }), 'Topic is not muted');
    expectBadRequest(await mute(m, other, { stream: 'general', topic: 'lunch', op: 'toggle' }), 'Invalid op');
    expectError(await mute(m, other, { stream: 'general', topic: 'lunch' }), 'REQUEST_VARIABLE_MISSING', "Missing 'op' argument", 400, { var_name: 'op' });
    expectError(await mute(m, null, { stream: 'general', topic: 'lunch', op: 'add' }), 'UNAUTHORIZED', 'Not logged in: API authentication or user session required', 401);
    expect(m.drain()).toEqual([]);
  });
});
