/** DELETE /messages/{id} and the message-deleting deactivation actions: permissions, events, first_message_id. */
import { doDeactivateUser, doDeleteMessage, getMessage } from '@teamchat/core';
import { describe, expect, it } from 'vitest';
import { must } from '../helpers/core.js';
import { editWorld, ofType } from './message-edit-helpers.js';
import { expectBadRequest, expectError, secondRealm } from './fixtures.js';

describe('DELETE /messages/{id}', () => {
  it('deletes for holders: bulk clients get message_ids, the others message_id; first_message_id moves on', async () => {
    const e = await editWorld();
    const first = await e.send(e.alice, 'general', 'lunch');
    const second = await e.send(e.alice, 'general', 'lunch');
    const bulk = await e.queue(e.bob, { bulk_message_deletion: true });
    const legacy = await e.queue(e.mod);
    const outsider = await e.queue(e.bob);
    e.drain();
    expect(must(await doDeleteMessage(e.w.ctx, e.w.as(e.alice), { message_id: first }))).toEqual({});
    expect((await bulk()).filter((ev) => ev.type === 'delete_message')).toEqual([
      { type: 'delete_message', id: expect.any(Number), message_type: 'stream', stream_id: e.general, topic: 'lunch', message_ids: [first] },
    ]);
    expect((await legacy()).filter((ev) => ev.type === 'delete_message')).toEqual([
      { type: 'delete_message', id: expect.any(Number), message_type: 'stream', stream_id: e.general, topic: 'lunch', message_id: first },
    ]);
    expect((await outsider()).filter((ev) => ev.type === 'stream')).toMatchObject([{ op: 'update', stream_id: e.general, property: 'first_message_id', value: second }]);
    expectBadRequest(await getMessage(e.w.ctx, e.w.as(e.alice), { message_id: first }), 'Invalid message(s)');
  });

  it('tells a deleting administrator only of what they could read (FL 457)', async () => {
    const e = await editWorld();
    const dm = await e.dm(e.alice, [e.bob]);
    e.drain();
    // The owner cannot read Alice and Bob's conversation, so cannot delete it either.
    expectBadRequest(await doDeleteMessage(e.w.ctx, e.w.as(e.owner), { message_id: dm }), 'Invalid message(s)');
    const id = await e.send(e.bob, 'secret', 'x');
    e.drain();
    must(await doDeleteMessage(e.w.ctx, e.w.as(e.owner), { message_id: id }));
    const deletes = ofType(e.drain(), 'delete_message').filter((d) => 'message_ids' in d.event);
    expect(deletes.flatMap((d) => d.userIds).sort()).toEqual([e.owner.id, e.bob.id].sort());
  });

  it('refuses others, guests of others, late senders; DMs for participants only', async () => {
    const e = await editWorld({ message_content_delete_limit_seconds: 60 });
    const id = await e.send(e.alice, 'general', 'lunch');
    const dm = await e.dm(e.alice, [e.bob]);
    e.drain();
    for (const user of [e.bob, e.mod, e.guest]) {
      expectBadRequest(await doDeleteMessage(e.w.ctx, e.w.as(user), { message_id: id }), "You don't have permission to delete this message");
    }
    expectBadRequest(await doDeleteMessage(e.w.ctx, e.w.as(e.alice), { message_id: 999 }), 'Invalid message(s)');
    expectBadRequest(await doDeleteMessage.fromTransport(e.w.ctx, e.w.as(e.alice), { message_id: 'x' }), 'message_id is not an integer');
    const other = await secondRealm(e.w.ctx);
    expectBadRequest(await doDeleteMessage(e.w.ctx, { realm: other.realm, user: other.owner }, { message_id: id }), 'Invalid message(s)');
    e.drain();
    expectError(await doDeleteMessage(e.w.ctx, e.w.as(null), { message_id: id }), 'UNAUTHORIZED', 'Not logged in: API authentication or user session required', 401);
    e.clock.advance(61_000);
    expectBadRequest(await doDeleteMessage(e.w.ctx, e.w.as(e.alice), { message_id: id }), 'The time limit for deleting this message has passed');
    expect(e.drain()).toEqual([]);
    must(await doDeleteMessage(e.w.ctx, e.w.as(e.owner), { message_id: id }));
    // Decided: the delete limit binds senders only; administrators delete at any age.
    expectBadRequest(await doDeleteMessage(e.w.ctx, e.w.as(e.alice), { message_id: dm }), 'The time limit for deleting this message has passed');
    e.drain();
    const fresh = await e.dm(e.alice, [e.bob]);
    e.drain();
    must(await doDeleteMessage(e.w.ctx, e.w.as(e.alice), { message_id: fresh }));
    const [event] = ofType(e.drain(), 'delete_message').filter((d) => 'message_ids' in d.event);
    expect(event!.event).toEqual({ type: 'delete_message', message_type: 'private', message_ids: [fresh] });
    expect(event!.userIds.slice().sort()).toEqual([e.alice.id, e.bob.id].sort());
  });
});

describe('deactivation actions', () => {
  it('delete the chosen kinds of the user’s messages, with events', async () => {
    const e = await editWorld();
    const pub = await e.send(e.bob, 'general', 'a');
    const priv = await e.send(e.bob, 'secret', 'b');
    const dm = await e.dm(e.bob, [e.alice]);
    const kept = await e.send(e.alice, 'general', 'a');
    e.drain();
    must(await doDeactivateUser.fromTransport(e.w.ctx, e.w.as(e.owner), { user_id: String(e.bob.id), actions: '{"delete_public_channel_messages":true,"delete_direct_messages":true}' }));
    const deletes = ofType(e.drain(), 'delete_message').filter((d) => 'message_ids' in d.event);
    expect(deletes.map((d) => [d.event.message_ids, d.userIds.slice().sort()])).toEqual([
      [[pub], [e.owner.id, e.alice.id, e.bob.id, e.mod.id, e.guest.id].sort()],
      [[dm], [e.alice.id, e.bob.id].sort()],
    ]);
    expectBadRequest(await getMessage(e.w.ctx, e.w.as(e.alice), { message_id: dm }), 'Invalid message(s)');
    expectBadRequest(await getMessage(e.w.ctx, e.w.as(e.owner), { message_id: pub }), 'Invalid message(s)');
    must(await getMessage(e.w.ctx, e.w.as(e.owner), { message_id: priv }));
    must(await getMessage(e.w.ctx, e.w.as(e.owner), { message_id: kept }));

    const carl = await e.w.addUser({ email: 'carl@example.com', fullName: 'Carl Cole' });
    must(await doDeactivateUser.fromTransport(e.w.ctx, e.w.as(e.owner), { user_id: String(carl.id), actions: '{"delete_private_channel_messages":true}' }));
    must(await getMessage(e.w.ctx, e.w.as(e.owner), { message_id: priv }));
  });

  it('delete private channel messages when asked', async () => {
    const e = await editWorld();
    const priv = await e.send(e.bob, 'secret', 'b');
    must(await doDeactivateUser.fromTransport(e.w.ctx, e.w.as(e.owner), { user_id: String(e.bob.id), actions: '{"delete_private_channel_messages":true}' }));
    expectBadRequest(await getMessage(e.w.ctx, e.w.as(e.owner), { message_id: priv }), 'Invalid message(s)');
  });
});
