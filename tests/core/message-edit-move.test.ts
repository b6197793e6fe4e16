/** PATCH /messages/{id}: topic and channel moves, propagate modes, time limits, resolving, access changes. */
import { doSubscribe, doUpdateMessage, getMessage, getMessages } from '@teamchat/core';
import { describe, expect, it } from 'vitest';
import { must } from '../helpers/core.js';
import { editWorld, ofType } from './message-edit-helpers.js';
import { expectBadRequest, expectError } from './fixtures.js';

type E = Awaited<ReturnType<typeof editWorld>>;
const topicOf = async (e: E, id: number, viewer = e.owner) =>
  ((must(await getMessage(e.w.ctx, e.w.as(viewer), { message_id: id }))).message);
const move = (e: E, user: E['alice'], id: number, input: Record<string, string>) => doUpdateMessage(e.w.ctx, e.w.as(user), { message_id: id, ...input });

describe('topic moves', () => {
  it('change_one, change_later and change_all take the target, the later or all messages (case-insensitively)', async () => {
    const e = await editWorld();
    const a = await e.send(e.owner, 'general', 'Lunch');
    const b = await e.send(e.bob, 'general', 'lunch');
    const c = await e.send(e.owner, 'general', 'LUNCH');
    const elsewhere = await e.send(e.owner, 'general', 'dinner');
    e.drain();
    must(await move(e, e.alice, b, { topic: 'brunch', propagate_mode: 'change_later' }));
    const [update] = ofType(e.drain(), 'update_message');
    expect(update!.event).toMatchObject({ message_id: b, message_ids: [b, c], propagate_mode: 'change_later', orig_subject: 'lunch', subject: 'brunch', topic_links: [], stream_id: e.general });
    expect(update!.event).not.toHaveProperty('new_stream_id');
    expect(update!.event).not.toHaveProperty('content');
    expect([(await topicOf(e, a)).subject, (await topicOf(e, b)).subject, (await topicOf(e, c)).subject]).toEqual(['Lunch', 'brunch', 'brunch']);
    const moved = await topicOf(e, c);
    expect(moved.last_moved_timestamp).toBe(Math.floor(e.clock.t / 1000));
    expect(moved).not.toHaveProperty('last_edit_timestamp');
    expect(moved.edit_history).toEqual([{ user_id: e.alice.id, timestamp: Math.floor(e.clock.t / 1000), prev_topic: 'LUNCH', topic: 'brunch' }]);

    must(await move(e, e.alice, a, { topic: 'all', propagate_mode: 'change_all' }));
    expect((await topicOf(e, a)).subject).toBe('all');
    must(await move(e, e.alice, b, { topic: 'all', propagate_mode: 'change_all' }));
    expect([(await topicOf(e, b)).subject, (await topicOf(e, c)).subject, (await topicOf(e, elsewhere)).subject]).toEqual(['all', 'all', 'dinner']);
    must(await move(e, e.alice, c, { subject: 'one' }));
    expect([(await topicOf(e, b)).subject, (await topicOf(e, c)).subject]).toEqual(['all', 'one']);
  });

  it('resolves a topic with ✔ without counting it as a move; "(no topic)" is the empty topic', async () => {
    const e = await editWorld();
    const id = await e.send(e.owner, 'general', 'bug');
    must(await move(e, e.alice, id, { topic: '✔ bug', propagate_mode: 'change_all' }));
    const resolved = await topicOf(e, id);
    expect(resolved.subject).toBe('✔ bug');
    expect(resolved).not.toHaveProperty('last_moved_timestamp');
    expect((resolved.edit_history as unknown[]).length).toBe(1);
    const page = must(await getMessages(e.w.ctx, e.w.as(e.owner), { anchor: 'newest', num_before: 5, num_after: 0, narrow: [["is","resolved"]] })) as { messages: Array<{ id: number }> };
    // The Notification Bot's "has marked this topic as resolved." notice follows it there.
    expect(page.messages.map((m) => m.id)).toEqual([id, id + 1]);
    e.drain();
    must(await move(e, e.alice, id, { topic: '(no topic)' }));
    const [update] = ofType(e.drain(), 'update_message');
    expect(update!.event.subject).toBe('');
    const q = await e.queue(e.owner);
    const q2 = await e.queue(e.alice, { empty_topic_name: true });
    must(await move(e, e.alice, id, { topic: 'named' }));
    expect((await q()).find((ev) => ev.type === 'update_message')).toMatchObject({ orig_subject: 'general chat', subject: 'named' });
    expect((await q2()).find((ev) => ev.type === 'update_message')).toMatchObject({ orig_subject: '', subject: 'named' });
  });

  it('guests may not move topics; moves past the limit are refused below moderator (FL 505)', async () => {
    // The reference's default lets everyone (guests too) move topics; this realm limits it to members.
    const e = await editWorld({ move_messages_within_stream_limit_seconds: 3600, can_move_messages_between_topics_group: 'role:members' });
    const old1 = await e.send(e.owner, 'general', 'history');
    const old2 = await e.send(e.owner, 'general', 'history');
    e.clock.advance(2 * 3600_000);
    const recent1 = await e.send(e.owner, 'general', 'history');
    const recent2 = await e.send(e.owner, 'general', 'history');
    e.drain();
    expectBadRequest(await move(e, e.guest, recent1, { topic: 'x' }), "You don't have permission to edit this message");
    expectBadRequest(await move(e, e.alice, old1, { topic: 'x' }), "The time limit for editing this message's topic has passed.");
    for (const target of [recent1, old2]) {
      expectError(await move(e, e.alice, target, { topic: 'x', propagate_mode: 'change_all' }), 'MOVE_MESSAGES_TIME_LIMIT_EXCEEDED', 'You only have permission to move the 2/4 most recent messages in this topic.', 400, {
        first_message_id_allowed_to_move: recent1,
        total_messages_allowed_to_move: 2,
        total_messages_in_topic: 4,
      });
    }
    expect(e.drain()).toEqual([]);
    must(await move(e, e.alice, recent1, { topic: 'x', propagate_mode: 'change_later' }));
    expect((await topicOf(e, recent2)).subject).toBe('x');
    e.clock.advance(2 * 3600_000);
    expectBadRequest(await move(e, e.alice, recent1, { topic: 'y', propagate_mode: 'change_all' }), "The time limit for editing this message's topic has passed.");
    // Moderators and administrators are exempt.
    must(await move(e, e.mod, old1, { topic: 'z', propagate_mode: 'change_all' }));
    expect((await topicOf(e, old2)).subject).toBe('z');
  });
});

describe('channel moves', () => {
  it('moves into a private channel: holders who cannot read it get delete_message, its subscribers the update', async () => {
    const e = await editWorld();
    const id = await e.send(e.owner, 'general', 'plans', 'first');
    const second = await e.send(e.owner, 'general', 'plans', 'second');
    const zed = await e.w.addUser({ email: 'zed@example.com', fullName: 'Zed Zulu' });
    must(await doSubscribe(e.w.ctx, e.w.as(e.owner), { subscriptions: [{"name":"secret"}], principals: [zed.id] }));
    e.drain();
    must(await move(e, e.owner, id, { stream_id: String(e.secret), propagate_mode: 'change_all', topic: 'secret plans' }));
    const events = e.drain();
    const updates = ofType(events, 'update_message');
    expect(updates.flatMap((u) => u.userIds).sort()).toEqual([e.owner.id, e.bob.id, zed.id].sort());
    expect(updates[0]!.event).toMatchObject({ message_ids: [id, second], stream_id: e.general, new_stream_id: e.secret, orig_subject: 'plans', subject: 'secret plans', propagate_mode: 'change_all' });
    const deletes = ofType(events, 'delete_message').filter((d) => 'message_ids' in d.event);
    expect(deletes.flatMap((d) => d.userIds).sort()).toEqual([e.alice.id, e.mod.id, e.guest.id].sort());
    expect(deletes[0]!.event).toEqual({ type: 'delete_message', message_type: 'stream', stream_id: e.general, topic: 'plans', message_ids: [id, second] });
    // general lost its oldest messages: first_message_id goes to null.
    expect(ofType(events, 'stream').map((s) => [s.event.stream_id, s.event.property, s.event.value])).toEqual([
      [e.general, 'first_message_id', null],
      [e.secret, 'first_message_id', id],
    ]);
    expectBadRequest(await getMessage(e.w.ctx, e.w.as(e.alice), { message_id: id }), 'Invalid message(s)');
    // Zed, subscribed to the private channel without shared history, got a read copy; Bob kept his.
    expect((await topicOf(e, id, zed)).flags).toEqual(['read']);
    expect((await topicOf(e, id, e.bob)).flags).toEqual([]);
    expect((await topicOf(e, id, e.bob)).stream_id).toBe(e.secret);
    expect((await topicOf(e, id)).edit_history).toEqual([
      { user_id: e.owner.id, timestamp: Math.floor(e.clock.t / 1000), prev_topic: 'plans', topic: 'secret plans', prev_stream: e.general, stream: e.secret },
    ]);
  });

  it('checks the destination, the permission and the channel limit', async () => {
    const e = await editWorld({ move_messages_between_streams_limit_seconds: 60 });
    const id = await e.send(e.alice, 'general', 'plans');
    expectBadRequest(await move(e, e.alice, id, { stream_id: String(e.secret) }), 'Invalid channel ID');
    expectBadRequest(await move(e, e.alice, id, { stream_id: '9999' }), 'Invalid channel ID');
    expectBadRequest(await move(e, e.guest, id, { stream_id: String(e.other) }), "You don't have permission to move this message");
    e.clock.advance(120_000);
    expectBadRequest(await move(e, e.alice, id, { stream_id: String(e.other) }), "The time limit for editing this message's channel has passed");
    must(await move(e, e.mod, id, { stream_id: String(e.other) }));
    // FL 509: the message's own channel is not a move.
    expectBadRequest(await move(e, e.mod, id, { stream_id: String(e.other) }), 'Nothing to change');
  });
});
