/** PATCH /messages/{id}: content edits, their flags, history, events and refusals. */
import { doUpdateMessage, getMessage } from '@teamchat/core';
import { describe, expect, it } from 'vitest';
import { must } from '../helpers/core.js';
import { editWorld, ofType } from './message-edit-helpers.js';
import { expectBadRequest, expectError, secondRealm } from './fixtures.js';

const read = async (e: Awaited<ReturnType<typeof editWorld>>, id: number, viewer = e.owner) =>
  must(await getMessage(e.w.ctx, e.w.as(viewer), { message_id: id }));

describe('content edits', () => {
  it('re-renders, records history newest first, recomputes mention flags and tells every holder', async () => {
    const e = await editWorld();
    const id = await e.send(e.alice, 'general', 'lunch', 'hi @**Bob Brown**');
    e.clock.advance(10_000);
    e.drain();
    expect(must(await doUpdateMessage(e.w.ctx, e.w.as(e.alice), { message_id: id, content: 'hi @**Mo Moderator** and @**channel**' }))).toEqual({ detached_uploads: [] });
    const [update, ...rest] = ofType(e.drain(), 'update_message');
    // Bob lost his mention; everyone gets the channel wildcard.
    const byUser = new Map<number, unknown>();
    for (const p of [update!, ...rest]) for (const u of p.userIds) byUser.set(u, p.event.flags);
    expect(byUser.get(e.bob.id)).toEqual(['stream_wildcard_mentioned', 'wildcard_mentioned']);
    expect(byUser.get(e.mod.id)).toEqual(['mentioned', 'stream_wildcard_mentioned', 'wildcard_mentioned']);
    expect(byUser.get(e.alice.id)).toEqual(['read', 'stream_wildcard_mentioned', 'wildcard_mentioned']);
    expect([...byUser.keys()].sort()).toEqual([e.owner.id, e.alice.id, e.bob.id, e.mod.id, e.guest.id].sort());
    expect(update!.event).toMatchObject({
      type: 'update_message',
      user_id: e.alice.id,
      rendering_only: false,
      message_id: id,
      message_ids: [id],
      edit_timestamp: Math.floor(e.clock.t / 1000),
      stream_name: 'general',
      stream_id: e.general,
      orig_content: 'hi @**Bob Brown**',
      content: 'hi @**Mo Moderator** and @**channel**',
      is_me_message: false,
    });
    expect(update!.event.rendered_content).toContain(`data-user-id="${e.mod.id}"`);
    expect(update!.event.orig_rendered_content).toContain(`data-user-id="${e.bob.id}"`);
    expect(update!.event).not.toHaveProperty('propagate_mode');

    must(await doUpdateMessage(e.w.ctx, e.w.as(e.alice), { message_id: id, content: 'third' }));
    const { message, raw_content } = await read(e, id, e.bob);
    expect(raw_content).toBe('third');
    expect(message.flags).toEqual([]);
    expect(message.last_edit_timestamp).toBe(Math.floor(e.clock.t / 1000));
    expect(message).not.toHaveProperty('last_moved_timestamp');
    expect(message.edit_history!.map((h) => h.prev_content)).toEqual(['hi @**Mo Moderator** and @**channel**', 'hi @**Bob Brown**']);
    expect(message.edit_history![0]).toEqual({
      user_id: e.alice.id,
      timestamp: Math.floor(e.clock.t / 1000),
      prev_content: 'hi @**Mo Moderator** and @**channel**',
      prev_rendered_content: expect.stringContaining('user-mention'),
    });
  });

  it('edits direct messages for their participants only, and empties to "(deleted)"', async () => {
    const e = await editWorld();
    const id = await e.dm(e.alice, [e.bob]);
    e.drain();
    must(await doUpdateMessage(e.w.ctx, e.w.as(e.alice), { message_id: id, content: '   ' }));
    const updates = ofType(e.drain(), 'update_message');
    expect(updates.flatMap((u) => u.userIds).sort()).toEqual([e.alice.id, e.bob.id].sort());
    expect(updates[0]!.event).not.toHaveProperty('stream_id');
    expect((await read(e, id, e.bob)).raw_content).toBe('(deleted)');
  });

  it('refuses with the reference texts and publishes nothing', async () => {
    const e = await editWorld({ message_content_edit_limit_seconds: 600 });
    const id = await e.send(e.alice, 'general', 'lunch');
    const secretId = await e.send(e.bob, 'secret', 'plans');
    const dmId = await e.dm(e.bob, [e.owner]);
    e.drain();
    const patch = (user = e.alice, input: Record<string, string> = {}) => doUpdateMessage(e.w.ctx, e.w.as(user), { message_id: id, ...input });
    expectBadRequest(await patch(e.bob, { content: 'x' }), "You don't have permission to edit this message");
    expectBadRequest(await patch(e.owner, { content: 'x' }), "You don't have permission to edit this message");
    expectBadRequest(await patch(e.alice, {}), 'Nothing to change');
    expectBadRequest(await patch(e.alice, { topic: 'lunch' }), 'Nothing to change');
    expectBadRequest(await patch(e.alice, { stream_id: String(e.general) }), 'Nothing to change');
    expectBadRequest(await patch(e.alice, { content: 'x', propagate_mode: 'change_all' }), 'Invalid propagate_mode without topic edit');
    expectBadRequest(await patch(e.alice, { content: 'x', stream_id: String(e.other) }), 'Cannot change message content while changing channel');
    expectBadRequest(await patch(e.alice, { content: 'x\u0000' }), 'Message must not contain null bytes');
    expectBadRequest(await patch(e.alice, { content: 'x', prev_content_sha256: 'abc' }), "'prev_content_sha256' value does not match the expected value.");
    expectError(await patch(e.alice, { topic: 'a', subject: 'b' }), 'REQUEST_CONFUSING_VAR', "Can't decide between 'topic' and 'subject' arguments", 400, { var_name1: 'topic', var_name2: 'subject' });
    expectBadRequest(await patch(e.alice, { propagate_mode: 'change_some', topic: 'x' }), 'Invalid propagate_mode');
    expectBadRequest(await patch(e.alice, { stream_id: 'x' }), 'stream_id is not valid JSON');
    // Unknown, unreadable (private channel, other people's DM) and other realms' messages look alike.
    for (const messageId of ['999', String(secretId), String(dmId)]) {
      expectBadRequest(await doUpdateMessage.fromTransport(e.w.ctx, e.w.as(e.alice), { message_id: messageId, content: 'x' }), 'Invalid message(s)');
    }
    const other = await secondRealm(e.w.ctx);
    expectBadRequest(await doUpdateMessage(e.w.ctx, { realm: other.realm, user: other.owner }, { message_id: id, content: 'x' }), 'Invalid message(s)');
    expectError(await doUpdateMessage.fromTransport(e.w.ctx, e.w.as(e.alice), { content: 'x' }), 'REQUEST_VARIABLE_MISSING', "Missing 'message_id' argument", 400, { var_name: 'message_id' });
    expectError(await doUpdateMessage(e.w.ctx, e.w.as(null), { message_id: id, content: 'x' }), 'UNAUTHORIZED', 'Not logged in: API authentication or user session required', 401);
    // DMs have no topic or channel.
    expectBadRequest(await doUpdateMessage(e.w.ctx, e.w.as(e.bob), { message_id: dmId, topic: 'x' }), 'Direct messages cannot have topics.');
    expectBadRequest(await doUpdateMessage(e.w.ctx, e.w.as(e.bob), { message_id: dmId, stream_id: e.general }), 'Direct messages cannot be moved to channels.');
    // The edit limit (600 s, with the reference's 20 s of slack).
    e.clock.advance(620_000);
    must(await patch(e.alice, { content: 'just in time' }));
    e.clock.advance(1_000);
    e.drain();
    expectBadRequest(await patch(e.alice, { content: 'late' }), 'The time limit for editing this message has passed');
    expect(e.drain()).toEqual([]);
  });

  it('follows the realm settings: editing off, or no limit', async () => {
    const off = await editWorld({ allow_message_editing: false });
    const id = await off.send(off.alice, 'general', 'lunch');
    expectBadRequest(await doUpdateMessage(off.w.ctx, off.w.as(off.alice), { message_id: id, content: 'x' }), 'Your organization has turned off message editing');
    const open = await editWorld({ message_content_edit_limit_seconds: null });
    const old = await open.send(open.alice, 'general', 'lunch');
    open.clock.advance(365 * 86_400_000);
    must(await doUpdateMessage(open.w.ctx, open.w.as(open.alice), { message_id: old, content: 'years later' }));
  });
});
