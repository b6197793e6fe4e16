/**
 * The channel `can_*_group` settings where they are enforced, after PATCH /streams/{id} changed
 * them: posting, starting topics, moving within and out of the channel, resolving, deleting,
 * and subscribing others.
 */
import { doDeleteMessage, doSendMessage, doSubscribe, doUpdateMessage, doUpdateRealm, doUpdateStream, type Stream, systemGroupId, type User } from '@teamchat/core/internal';
import { describe, expect, it } from 'vitest';
import { must } from '../helpers/core.js';
import { channel, subscribe } from './channel-helpers.js';
import { expectBadRequest } from './fixtures.js';
import { type MessageWorld, messageWorld } from './message-helpers.js';

const id = systemGroupId;
const json = (value: unknown) => JSON.stringify(value);

async function setChannel(mw: MessageWorld, stream: Stream, settings: Record<string, unknown>): Promise<void> {
  const params = Object.fromEntries(Object.entries(settings).map(([k, v]) => [k, json({ new: v })]));
  must(await doUpdateStream(mw.w.ctx, mw.w.as(mw.admin), { stream_id: stream.id, ...params }));
}
async function setRealm(mw: MessageWorld, settings: Record<string, unknown>): Promise<void> {
  must(await doUpdateRealm(mw.w.ctx, mw.w.as(mw.w.owner), Object.fromEntries(Object.entries(settings).map(([k, v]) => [k, json({ new: v })]))));
}
const only = (...users: User[]) => ({ direct_members: users.map((u) => u.id), direct_subgroups: [] });
const sendTo = (mw: MessageWorld, user: User, topic: string, to = 'general') =>
  doSendMessage(mw.w.ctx, mw.w.as(user), { type: 'stream', to, topic, content: 'hello' });
const move = (mw: MessageWorld, user: User, messageId: number, params: Record<string, unknown>) =>
  doUpdateMessage(mw.w.ctx, mw.w.as(user), { message_id: messageId, ...params });

describe('channel group settings, enforced', () => {
  it('can_send_message_group decides who may post, administrators included', async () => {
    const mw = await messageWorld();
    await setChannel(mw, mw.general, { can_send_message_group: only(mw.member) });
    must(await sendTo(mw, mw.member, 'lunch'));
    expectBadRequest(await sendTo(mw, mw.other, 'lunch'), 'You do not have permission to post in this channel.');
    expectBadRequest(await sendTo(mw, mw.admin, 'lunch'), 'You do not have permission to post in this channel.');
    await setChannel(mw, mw.general, { can_send_message_group: id('role:moderators') });
    must(await sendTo(mw, mw.admin, 'lunch'));
    expectBadRequest(await sendTo(mw, mw.member, 'lunch'), 'You do not have permission to post in this channel.');
  });

  it('can_create_topic_group decides who may start a topic; existing topics (any case) stay open; a bot may through its owner', async () => {
    const mw = await messageWorld();
    const { w, member, other, moderator, bot } = mw;
    must(await sendTo(mw, other, 'Lunch'));
    await setChannel(mw, mw.general, { can_create_topic_group: only(member) });
    const refused = 'You do not have permission to create new topics in this channel.';
    expectBadRequest(await sendTo(mw, other, 'dinner'), refused);
    expectBadRequest(await sendTo(mw, moderator, 'dinner'), refused);
    must(await sendTo(mw, other, 'lunch'));
    must(await sendTo(mw, member, 'dinner'));
    await subscribe(w, member, ['general'], { principals: [bot.id] });
    must(await sendTo(mw, bot, 'breakfast'));
    // Moving messages into a new topic starts it; resolving does not.
    const mine = must(await sendTo(mw, other, 'lunch'));
    expectBadRequest(await move(mw, other, mine.id, { topic: 'supper' }), refused);
    must(await move(mw, other, mine.id, { topic: 'dinner', propagate_mode: 'change_one' }));
    must(await move(mw, other, mine.id, { topic: '✔ dinner', propagate_mode: 'change_one' }));
  });

  it('can_move_messages_within_channel_group, and the channel’s administrators, may move topics the realm setting does not allow', async () => {
    const mw = await messageWorld();
    const { member, other, moderator } = mw;
    await setRealm(mw, { can_move_messages_between_topics_group: id('role:administrators') });
    const message = (must(await sendTo(mw, other, 'lunch'))).id;
    expectBadRequest(await move(mw, member, message, { topic: 'elsewhere' }), "You don't have permission to edit this message");
    await setChannel(mw, mw.general, { can_move_messages_within_channel_group: only(member) });
    must(await move(mw, member, message, { topic: 'elsewhere' }));
    expectBadRequest(await move(mw, moderator, message, { topic: 'again' }), "You don't have permission to edit this message");
    await setChannel(mw, mw.general, { can_administer_channel_group: only(moderator) });
    must(await move(mw, moderator, message, { topic: 'again' }));
  });

  it('can_move_messages_out_of_channel_group, and the channel’s administrators, may move messages out', async () => {
    const mw = await messageWorld();
    const { w, member, other, moderator } = mw;
    await setRealm(mw, { can_move_messages_between_channels_group: id('role:administrators') });
    await subscribe(w, w.owner, ['elsewhere'], { principals: [w.owner.id, member.id, other.id, moderator.id] });
    const target = await channel(w, 'elsewhere');
    const message = (must(await sendTo(mw, other, 'lunch'))).id;
    expectBadRequest(await move(mw, member, message, { stream_id: String(target.id) }), "You don't have permission to move this message");
    await setChannel(mw, mw.general, { can_move_messages_out_of_channel_group: only(member) });
    must(await move(mw, member, message, { stream_id: String(target.id), propagate_mode: 'change_one' }));
    const second = (must(await sendTo(mw, other, 'lunch'))).id;
    expectBadRequest(await move(mw, moderator, second, { stream_id: String(target.id) }), "You don't have permission to move this message");
    await setChannel(mw, mw.general, { can_administer_channel_group: only(moderator) });
    must(await move(mw, moderator, second, { stream_id: String(target.id), propagate_mode: 'change_one' }));
  });

  it('can_resolve_topics_group lets its members resolve where the realm does not; guests too, as it may name everyone', async () => {
    const mw = await messageWorld();
    const { w, member, other, guest } = mw;
    await setRealm(mw, { can_resolve_topics_group: id('role:administrators') });
    const message = (must(await sendTo(mw, other, 'lunch'))).id;
    const refused = "You don't have permission to resolve topics in this channel.";
    expectBadRequest(await move(mw, member, message, { topic: '✔ lunch' }), refused);
    await setChannel(mw, mw.general, { can_resolve_topics_group: id('role:everyone') });
    must(await move(mw, member, message, { topic: '✔ lunch' }));
    await subscribe(w, w.owner, ['general'], { principals: [guest.id] });
    must(await move(mw, guest, message, { topic: 'lunch' }));
  });

  it('can_delete_any_message_group and can_delete_own_message_group, guests included where they name everyone', async () => {
    const mw = await messageWorld();
    const { w, member, other, guest } = mw;
    await setRealm(mw, { can_delete_own_message_group: id('role:administrators') });
    await subscribe(w, w.owner, ['general'], { principals: [guest.id] });
    const own = (must(await sendTo(mw, member, 'lunch'))).id;
    const others = (must(await sendTo(mw, other, 'lunch'))).id;
    const guests = (must(await sendTo(mw, guest, 'lunch'))).id;
    const del = (user: User, messageId: number) => doDeleteMessage(w.ctx, w.as(user), { message_id: messageId });
    const refused = "You don't have permission to delete this message";
    expectBadRequest(await del(member, own), refused);
    expectBadRequest(await del(guest, guests), refused);
    await setChannel(mw, mw.general, { can_delete_own_message_group: id('role:everyone') });
    expectBadRequest(await del(member, others), refused);
    must(await del(member, own));
    must(await del(guest, guests));
    await setChannel(mw, mw.general, { can_delete_any_message_group: only(member) });
    must(await del(member, others));
  });

  it('can_add_subscribers_group and the channel’s administrators may subscribe others where the realm does not allow it', async () => {
    const mw = await messageWorld();
    const { w, member, other, moderator, guest } = mw;
    await setRealm(mw, { can_add_subscribers_group: id('role:administrators') });
    const add = (user: User, target: User) => doSubscribe(w.ctx, w.as(user), { subscriptions: [{ name: 'general' }], principals: [target.id] });
    expectBadRequest(await add(member, guest), 'Insufficient permission');
    await setChannel(mw, mw.general, { can_add_subscribers_group: only(member) });
    must(await add(member, guest));
    expectBadRequest(await add(moderator, guest), 'Insufficient permission');
    await setChannel(mw, mw.general, { can_administer_channel_group: only(moderator) });
    must(await add(moderator, guest));
    // A private channel's can_add_subscribers_group also gives content access.
    await setChannel(mw, mw.secret, { can_add_subscribers_group: only(other) });
    must(await doSubscribe(w.ctx, w.as(other), { subscriptions: [{ name: 'secret' }], principals: [moderator.id] }));
    expect((await channel(w, 'secret')).id).toBe(mw.secret.id);
  });
});
