/** POST /streams/{id}/delete_topic (batches, budget, permissions) and GET /users/me/{stream_id}/topics. */
import { DELETE_TOPIC_BATCH_SIZE, doDeleteTopic, doSendEditTyping, doSubscribe, getStreamTopics } from '@teamchat/core/internal';
import { describe, expect, it } from 'vitest';
import { must } from '../helpers/core.js';
import { isEvent } from '../helpers/events.js';
import { editWorld, ofType } from './message-edit-helpers.js';
import { expectBadRequest, expectError, secondRealm } from './fixtures.js';

describe('delete_topic', () => {
  it('deletes the topic case-insensitively in batches of 100, newest first, and updates first_message_id', async () => {
    const e = await editWorld();
    const keep = await e.send(e.alice, 'general', 'other');
    const ids: number[] = [];
    for (let i = 0; i < DELETE_TOPIC_BATCH_SIZE + 5; i++) ids.push(await e.send(e.alice, 'general', i % 2 ? 'Doomed' : 'doomed'));
    e.drain();
    expect(must(await doDeleteTopic(e.w.ctx, e.w.as(e.owner), { stream_id: e.general, topic_name: 'DOOMED' }))).toEqual({ complete: true });
    const deletes = ofType(e.drain(), 'delete_message').filter((d) => 'message_ids' in d.event);
    // Two batches, newest first; one event per stored topic spelling in each.
    const batches = deletes.flatMap(({ event }) => (isEvent(event, 'delete_message') && 'message_ids' in event ? [event.message_ids] : []));
    expect(batches.flat().sort((a, b) => a - b)).toEqual(ids);
    expect(Math.min(...batches.slice(0, 2).flat())).toBe(ids[5]);
    expect(deletes[0]!.userIds.slice().sort()).toEqual([e.owner.id, e.alice.id, e.bob.id, e.mod.id, e.guest.id].sort());
    expect(must(await getStreamTopics(e.w.ctx, e.w.as(e.owner), { stream_id: e.general }))).toEqual({ topics: [{ name: 'other', max_id: keep }] });
    // An empty or unknown topic is complete at once.
    expect(must(await doDeleteTopic(e.w.ctx, e.w.as(e.owner), { stream_id: e.general, topic_name: 'nothing' }))).toEqual({ complete: true });
  });

  it('answers complete:false when the time budget runs out, and the client repeats', async () => {
    const e = await editWorld({}, { deleteTopicTimeBudgetMs: 0 });
    for (let i = 0; i < DELETE_TOPIC_BATCH_SIZE + 1; i++) await e.send(e.alice, 'general', 'big');
    const first = await e.send(e.alice, 'general', 'general chat is empty');
    e.drain();
    const call = () => doDeleteTopic(e.w.ctx, e.w.as(e.owner), { stream_id: e.general, topic_name: 'big' });
    expect(must(await call())).toEqual({ complete: false });
    expect(must(await call())).toEqual({ complete: true });
    const streamEvents = ofType(e.drain(), 'stream');
    expect(streamEvents.at(-1)!.event).toMatchObject({ property: 'first_message_id', value: first });
  });

  it('reads realm_empty_topic_display_name as the empty topic', async () => {
    const e = await editWorld();
    await e.send(e.alice, 'general', '');
    must(await doDeleteTopic(e.w.ctx, e.w.as(e.owner), { stream_id: e.general, topic_name: 'general chat' }));
    expect(must(await getStreamTopics(e.w.ctx, e.w.as(e.owner), { stream_id: e.general }))).toEqual({ topics: [] });
  });

  it('is for administrators, on channels they can read; nothing is published on failure', async () => {
    const e = await editWorld();
    await e.send(e.bob, 'secret', 'x');
    const zed = await e.w.addUser({ email: 'admin2@example.com', fullName: 'Ada Admin', role: 200 });
    e.drain();
    for (const user of [e.alice, e.mod, e.guest]) {
      expectError(await doDeleteTopic(e.w.ctx, e.w.as(user), { stream_id: e.general, topic_name: 'x' }), 'UNAUTHORIZED_PRINCIPAL', 'Must be an organization administrator');
    }
    expectBadRequest(await doDeleteTopic(e.w.ctx, e.w.as(zed), { stream_id: e.secret, topic_name: 'x' }), 'Invalid channel ID');
    expectBadRequest(await doDeleteTopic(e.w.ctx, e.w.as(e.owner), { stream_id: 999, topic_name: 'x' }), 'Invalid channel ID');
    const other = await secondRealm(e.w.ctx);
    expectBadRequest(await doDeleteTopic(e.w.ctx, { realm: other.realm, user: other.owner }, { stream_id: e.general, topic_name: 'x' }), 'Invalid channel ID');
    expectError(await doDeleteTopic.fromTransport(e.w.ctx, e.w.as(e.owner), { stream_id: e.general }), 'REQUEST_VARIABLE_MISSING', "Missing 'topic_name' argument", 400, { var_name: 'topic_name' });
    expect(ofType(e.drain(), 'delete_message')).toEqual([]);
  });
});

describe('GET /users/me/{stream_id}/topics', () => {
  it('lists topics newest first; a private channel without shared history shows only received ones', async () => {
    const e = await editWorld();
    const a = await e.send(e.alice, 'general', 'alpha');
    const b = await e.send(e.alice, 'general', '');
    const c = await e.send(e.alice, 'general', 'ALPHA');
    expect(must(await getStreamTopics(e.w.ctx, e.w.as(e.guest), { stream_id: e.general }))).toEqual({
      topics: [
        { name: expect.stringMatching(/^alpha$/i), max_id: c },
        { name: 'general chat', max_id: b },
      ],
    });
    expect(must(await getStreamTopics(e.w.ctx, e.w.as(e.guest), { stream_id: e.general, allow_empty_topic_name: true }))).toMatchObject({
      topics: [{ max_id: c }, { name: '', max_id: b }],
    });
    expect(a).toBeLessThan(b);
    const s1 = await e.send(e.bob, 'secret', 'before');
    const zed = await e.w.addUser({ email: 'zed@example.com', fullName: 'Zed Zulu' });
    must(await doSubscribe(e.w.ctx, e.w.as(e.owner), { subscriptions: [{"name":"secret"}], principals: [zed.id] }));
    const s2 = await e.send(e.bob, 'secret', 'after');
    expect(must(await getStreamTopics(e.w.ctx, e.w.as(zed), { stream_id: e.secret }))).toEqual({ topics: [{ name: 'after', max_id: s2 }] });
    expect(must(await getStreamTopics(e.w.ctx, e.w.as(e.bob), { stream_id: e.secret }))).toEqual({ topics: [{ name: 'after', max_id: s2 }, { name: 'before', max_id: s1 }] });
    expectBadRequest(await getStreamTopics(e.w.ctx, e.w.as(e.alice), { stream_id: e.secret }), 'Invalid channel ID');
  });
});

describe('POST /messages/{id}/typing', () => {
  it('sends typing_edit_message to the conversation', async () => {
    const e = await editWorld();
    const dm = await e.dm(e.alice, [e.bob]);
    const id = await e.send(e.alice, 'general', 'lunch');
    e.drain();
    must(await doSendEditTyping(e.w.ctx, e.w.as(e.alice), { message_id: dm, op: 'start' }));
    const [direct] = ofType(e.drain(), 'typing_edit_message');
    expect(direct!.event).toEqual({ type: 'typing_edit_message', op: 'start', sender_id: e.alice.id, message_id: dm, recipient: { type: 'direct', user_ids: [e.alice.id, e.bob.id] } });
    expect(direct!.userIds.slice().sort()).toEqual([e.alice.id, e.bob.id].sort());
    must(await doSendEditTyping(e.w.ctx, e.w.as(e.alice), { message_id: id, op: 'stop' }));
    const [channel] = ofType(e.drain(), 'typing_edit_message');
    expect(channel!.event.recipient).toEqual({ type: 'channel', channel_id: e.general, topic: 'lunch' });
    expectBadRequest(await doSendEditTyping(e.w.ctx, e.w.as(e.owner), { message_id: dm, op: 'start' }), 'Invalid message(s)');
    expectBadRequest(await doSendEditTyping.fromTransport(e.w.ctx, e.w.as(e.alice), { message_id: String(dm), op: 'go' }), 'Invalid op');
    expect(e.drain()).toEqual([]);
  });
});
