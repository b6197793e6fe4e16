/** POST /messages/{message_id}/reactions in the core: shapes, the vote rule, errors, events. */
import { doAddReaction, doDeactivateRealmEmoji, getMessages } from '@teamchat/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { must } from '../helpers/core.js';
import { type ChannelWorld, channelWorld, ids, queued, recipientsOf, register, subscribe } from './channel-helpers.js';
import { expectBadRequest, expectError, secondRealm } from './fixtures.js';
import { addEmoji, reactionsOf, send } from './reaction-helpers.js';

let c: ChannelWorld;
let general: number;
beforeEach(async () => {
  c = await channelWorld();
  await subscribe(c.w, c.w.owner, ['general'], { principals: [c.w.owner.id, c.member.id] });
  general = await send(c.w, c.w.owner, 'general');
  c.drain();
});

const add = (user = c.member, params: Record<string, unknown> = {}) =>
  doAddReaction(c.w.ctx, c.w.as(user), { message_id: general, emoji_name: 'tada', ...params });

describe('adding', () => {
  it('derives the code and type from the name, shows the reaction on the message and tells who can see it', async () => {
    const queue = await register(c.w, c.w.owner, { event_types: '["reaction"]' });
    expect(must(await add())).toEqual({});
    const reaction = { emoji_name: 'tada', emoji_code: '1f389', reaction_type: 'unicode_emoji', user_id: c.member.id };
    expect(await reactionsOf(c.w, c.w.owner, general)).toEqual([reaction]);
    const events = await queued(c.w, c.w.owner, queue.queue_id);
    // FL 484: user_id and no `user` object.
    expect(events).toEqual([
      { id: 0, type: 'reaction', op: 'add', user_id: c.member.id, message_id: general, emoji_name: 'tada', emoji_code: '1f389', reaction_type: 'unicode_emoji' },
    ]);
    expect(recipientsOf(c.drain(), 'reaction')).toEqual([ids(c.w.owner, c.member)]);
  });

  it('takes an explicit code and type; an alias of the code is a valid name', async () => {
    must(await add(c.member, { emoji_name: 'thumbs_up', emoji_code: '1f44d', reaction_type: 'unicode_emoji' }));
    must(await add(c.member, { emoji_name: 'zulip', emoji_code: 'zulip', reaction_type: 'service_extra_emoji' }));
    expect(await reactionsOf(c.w, c.member, general)).toEqual([
      { emoji_name: 'thumbs_up', emoji_code: '1f44d', reaction_type: 'unicode_emoji', user_id: c.member.id },
      { emoji_name: 'zulip', emoji_code: 'zulip', reaction_type: 'service_extra_emoji', user_id: c.member.id },
    ]);
  });

  it('a custom emoji by name resolves to the realm emoji, ahead of a unicode emoji of the same name', async () => {
    const id = await addEmoji(c.w, c.w.owner, 'octopus');
    must(await add(c.member, { emoji_name: 'octopus' }));
    expect(await reactionsOf(c.w, c.member, general)).toEqual([
      { emoji_name: 'octopus', emoji_code: String(id), reaction_type: 'realm_emoji', user_id: c.member.id },
    ]);
  });

  it('a second user with the same emoji votes: the first reaction name is kept and the checks are skipped', async () => {
    must(await add(c.w.owner, { emoji_name: 'like' }));
    must(await add(c.member, { emoji_name: 'smile', emoji_code: '1f44d', reaction_type: 'unicode_emoji' }));
    expect((await reactionsOf(c.w, c.member, general)).map((r) => (r as { emoji_name: string }).emoji_name)).toEqual(['like', 'like']);

    const id = await addEmoji(c.w, c.w.owner, 'green_tick');
    must(await add(c.w.owner, { emoji_name: 'green_tick' }));
    must(await doDeactivateRealmEmoji(c.w.ctx, c.w.as(c.w.owner), { emoji_name: 'green_tick' }));
    must(await add(c.member, { emoji_name: 'anything', emoji_code: String(id), reaction_type: 'realm_emoji' }));
    expectBadRequest(await add(c.admin, { emoji_name: 'green_tick', emoji_code: String(id + 1), reaction_type: 'realm_emoji' }), 'Invalid custom emoji.');
  });

  it('reacting to a public channel message one never received gives a historical copy, so its events reach the reactor', async () => {
    must(await add(c.other));
    const page = must(await getMessages(c.w.ctx, c.w.as(c.other), { anchor: String(general), num_before: 0, num_after: 0 })) as {
      messages: Array<{ flags: string[] }>;
    };
    expect(page.messages[0]!.flags).toEqual(['read', 'historical']);
    expect(recipientsOf(c.drain(), 'reaction')).toEqual([ids(c.w.owner, c.member, c.other)]);
  });
});

describe('errors publish nothing', () => {
  // Each test ends with failing calls: they must not have published anything.
  afterEach(() => expect(c.drain().filter((p) => p.event.type === 'reaction')).toEqual([]));

  it('REACTION_ALREADY_EXISTS for the same user, code and type', async () => {
    must(await add());
    c.drain();
    expectError(await add(c.member, { emoji_name: 'tada', emoji_code: '1f389', reaction_type: 'unicode_emoji' }), 'REACTION_ALREADY_EXISTS', 'Reaction already exists.');
  });

  it('bad emoji: the reference texts in its order', async () => {
    const id = await addEmoji(c.w, c.w.owner, 'green_tick');
    c.drain();
    expectBadRequest(await add(c.member, { emoji_name: 'nope_nope' }), "Emoji 'nope_nope' does not exist");
    expectBadRequest(await add(c.member, { emoji_code: 'ffff0', reaction_type: 'unicode_emoji' }), 'Invalid emoji code.');
    expectBadRequest(await add(c.member, { emoji_code: '1f44d', reaction_type: 'unicode_emoji' }), 'Invalid emoji name.');
    expectBadRequest(await add(c.member, { emoji_code: 'tada', reaction_type: 'emoji' }), 'Invalid emoji type.');
    expectBadRequest(await add(c.member, { emoji_code: 'zulip', reaction_type: 'service_extra_emoji' }), 'Invalid emoji name.');
    expectBadRequest(await add(c.member, { emoji_code: 'octocat', reaction_type: 'service_extra_emoji' }), 'Invalid emoji code.');
    expectBadRequest(await add(c.member, { emoji_name: 'tada', emoji_code: String(id), reaction_type: 'realm_emoji' }), 'Invalid custom emoji name.');
    must(await doDeactivateRealmEmoji(c.w.ctx, c.w.as(c.w.owner), { emoji_name: 'green_tick' }));
    c.drain();
    expectBadRequest(await add(c.member, { emoji_name: 'green_tick', emoji_code: String(id), reaction_type: 'realm_emoji' }), 'This custom emoji has been deactivated.');
    expectBadRequest(await add(c.member, { emoji_name: 'green_tick' }), "Emoji 'green_tick' does not exist");
  });

  it('bad input: missing name, malformed and unknown message IDs, wrong types', async () => {
    expectError(await doAddReaction.fromTransport(c.w.ctx, c.w.as(c.member), { message_id: general }), 'REQUEST_VARIABLE_MISSING', 'Missing \'emoji_name\' argument', 400, { var_name: 'emoji_name' });
    expectBadRequest(await add(c.member, { message_id: 'abc' }), 'message_id is not an integer');
    expectBadRequest(await add(c.member, { message_id: '99999' }), 'Invalid message(s)');
    expectBadRequest(await add(c.member, { emoji_name: 42 }), 'emoji_name is not a string');
    expectError(await doAddReaction(c.w.ctx, { realm: c.w.realm, user: null }, { message_id: general, emoji_name: 'tada' }), 'UNAUTHORIZED', 'Not logged in: API authentication or user session required', 401);
  });

  it('messages one may not read are "Invalid message(s)": private channels, others\' direct messages, another realm', async () => {
    await subscribe(c.w, c.w.owner, ['secret'], { invite_only: true });
    const secret = await send(c.w, c.w.owner, 'secret');
    const dm = await send(c.w, c.w.owner, [c.member]);
    const other = await secondRealm(c.w.ctx);
    c.drain();
    expectBadRequest(await add(c.member, { message_id: String(secret) }), 'Invalid message(s)');
    expectBadRequest(await add(c.admin, { message_id: String(secret) }), 'Invalid message(s)');
    expectBadRequest(await add(c.other, { message_id: String(dm) }), 'Invalid message(s)');
    // A guest reads no channel history it is not subscribed to, even a public one.
    expectBadRequest(await add(c.guest), 'Invalid message(s)');
    expectBadRequest(await doAddReaction(c.w.ctx, { realm: other.realm, user: other.owner }, { message_id: general, emoji_name: 'tada' }), 'Invalid message(s)');
  });
});
