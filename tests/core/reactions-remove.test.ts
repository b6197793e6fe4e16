/** DELETE /messages/{message_id}/reactions in the core: by name or code, errors, events. */
import { doAddReaction, doRemoveReaction } from '@teamchat/core';
import { beforeEach, describe, expect, it } from 'vitest';
import { must } from '../helpers/core.js';
import { type ChannelWorld, channelWorld, ids, queued, recipientsOf, register, subscribe } from './channel-helpers.js';
import { expectBadRequest, expectError } from './fixtures.js';
import { addEmoji, reactionsOf, send } from './reaction-helpers.js';

let c: ChannelWorld;
let general: number;
beforeEach(async () => {
  c = await channelWorld();
  await subscribe(c.w, c.w.owner, ['general'], { principals: [c.w.owner.id, c.member.id] });
  general = await send(c.w, c.w.owner, 'general');
  must(await doAddReaction(c.w.ctx, c.w.as(c.member), { message_id: general, emoji_name: 'like' }));
  c.drain();
});

const remove = (params: Record<string, unknown>, user = c.member) =>
  doRemoveReaction(c.w.ctx, c.w.as(user), { message_id: general, ...params });

describe('removing', () => {
  it('by name: the code is looked up; the event carries the stored name and goes to who can see the message', async () => {
    const queue = await register(c.w, c.w.owner, { event_types: '["reaction"]' });
    // `thumbs_up` resolves to the same code as the stored `like`.
    expect(must(await remove({ emoji_name: 'thumbs_up' }))).toEqual({});
    expect(await reactionsOf(c.w, c.member, general)).toEqual([]);
    expect(await queued(c.w, c.w.owner, queue.queue_id)).toEqual([
      { id: 0, type: 'reaction', op: 'remove', user_id: c.member.id, message_id: general, emoji_name: 'like', emoji_code: '1f44d', reaction_type: 'unicode_emoji' },
    ]);
    expect(recipientsOf(c.drain(), 'reaction', 'remove')).toEqual([ids(c.w.owner, c.member)]);
  });

  it('by code, reaction_type defaulting to unicode_emoji; another user\'s reaction stays', async () => {
    must(await doAddReaction(c.w.ctx, c.w.as(c.w.owner), { message_id: general, emoji_name: 'like' }));
    must(await remove({ emoji_code: '1f44d' }));
    expect(await reactionsOf(c.w, c.member, general)).toEqual([
      { emoji_name: 'like', emoji_code: '1f44d', reaction_type: 'unicode_emoji', user_id: c.w.owner.id },
    ]);
  });

  it('a custom emoji by code and type, even after it was deactivated; by name alone it is not found', async () => {
    const id = await addEmoji(c.w, c.w.owner, 'green_tick');
    must(await doAddReaction(c.w.ctx, c.w.as(c.member), { message_id: general, emoji_name: 'green_tick' }));
    c.drain();
    // The type is not derived from the name: the name's code with unicode_emoji matches nothing.
    expectError(await remove({ emoji_name: 'green_tick' }), 'REACTION_DOES_NOT_EXIST', "Reaction doesn't exist.");
    must(await remove({ emoji_name: 'green_tick', reaction_type: 'realm_emoji' }));
    must(await doAddReaction(c.w.ctx, c.w.as(c.member), { message_id: general, emoji_name: 'green_tick' }));
    await c.w.ctx.storage.transaction(async (tx) => {
      await tx.realmEmoji.deactivate(c.w.realm.id, id);
      return { isOk: () => true, isErr: () => false, value: undefined } as never;
    });
    c.drain();
    must(await remove({ emoji_code: String(id), reaction_type: 'realm_emoji' }));
    expect(recipientsOf(c.drain(), 'reaction', 'remove')).toEqual([ids(c.w.owner, c.member)]);
  });
});

describe('errors publish nothing', () => {
  it('REACTION_DOES_NOT_EXIST, missing name and code, invalid codes and types, unknown names', async () => {
    expectError(await remove({ emoji_name: 'tada' }), 'REACTION_DOES_NOT_EXIST', "Reaction doesn't exist.");
    expectError(await remove({ emoji_name: 'like' }, c.w.owner), 'REACTION_DOES_NOT_EXIST', "Reaction doesn't exist.");
    expectError(await remove({ emoji_code: '1f44d', reaction_type: 'service_extra_emoji' }), 'BAD_REQUEST', 'Invalid emoji code.');
    expectBadRequest(await remove({}), 'At least one of the following arguments must be present: emoji_name, emoji_code');
    // API.md: an invalid code is BAD_REQUEST (the reference would answer REACTION_DOES_NOT_EXIST).
    expectBadRequest(await remove({ emoji_code: 'ffff0' }), 'Invalid emoji code.');
    expectBadRequest(await remove({ emoji_code: 'not-hex' }), 'Invalid emoji code.');
    expectBadRequest(await remove({ emoji_code: '999', reaction_type: 'realm_emoji' }), 'Invalid custom emoji.');
    expectBadRequest(await remove({ emoji_code: '1f44d', reaction_type: 'emoji' }), 'Invalid emoji type.');
    expectBadRequest(await remove({ emoji_name: 'nope_nope' }), "Emoji 'nope_nope' does not exist");
    expectBadRequest(await remove({ emoji_name: 'like', message_id: '99999' }), 'Invalid message(s)');
    expectBadRequest(await remove({ emoji_name: 'like', message_id: '-1' }), 'message_id is not an integer');
    expectBadRequest(await remove({ emoji_name: ['like'] }), 'emoji_name is not a string');
    expectError(await doRemoveReaction(c.w.ctx, { realm: c.w.realm, user: null }, { message_id: general, emoji_name: 'like' }), 'UNAUTHORIZED', 'Not logged in: API authentication or user session required', 401);
    expect(await reactionsOf(c.w, c.member, general)).toHaveLength(1);
    expect(c.drain().filter((p) => p.event.type === 'reaction')).toEqual([]);
  });

  it('a private channel message is invisible to a non-subscriber, whose removal cannot tell it exists', async () => {
    await subscribe(c.w, c.w.owner, ['secret'], { invite_only: true });
    const secret = await send(c.w, c.w.owner, 'secret');
    must(await doAddReaction(c.w.ctx, c.w.as(c.w.owner), { message_id: secret, emoji_name: 'like' }));
    c.drain();
    expectBadRequest(await remove({ emoji_name: 'like', message_id: String(secret) }, c.admin), 'Invalid message(s)');
    expect(c.drain()).toEqual([]);
  });
});
