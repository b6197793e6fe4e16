/** GET /messages/{message_id}/read_receipts and the settings that govern it (enable_read_receipts, send_read_receipts). */
import { doAddReaction, doMuteUser, doRegister, doSendMessage, doUpdateMessageFlags, doUpdateRealm, doUpdateSettings, getReadReceipts, type User } from '@teamchat/core';
import { describe, expect, it } from 'vitest';
import { must } from '../helpers/core.js';
import { expectBadRequest, secondRealm, setUser } from './fixtures.js';
import { type MessageWorld, messageWorld } from './message-helpers.js';
import { as } from './user-access-helpers.js';

/** The answer as `viewer` gets it, with the realm as stored now. */
const receipts = async (m: MessageWorld, viewer: User, messageId: number | string) =>
  getReadReceipts.fromTransport(m.w.ctx, await as(m.w, viewer), { message_id: messageId });
const readers = async (m: MessageWorld, viewer: User, messageId: number) => (must(await receipts(m, viewer, messageId))).user_ids;
const markRead = async (m: MessageWorld, user: User, ...ids: number[]) =>
  must(await doUpdateMessageFlags(m.w.ctx, m.w.as(user), { messages: ids, op: 'add', flag: 'read' }));
/** Register's realm section as a member gets it, with the realm as stored now. */
const realmState = async (m: MessageWorld) =>
  must(await doRegister(m.w.ctx, await as(m.w, m.member), { fetch_event_types: ["realm"] }));
const sorted = (...users: User[]) => users.map((u) => u.id).sort((a, b) => a - b);

describe('GET /messages/{message_id}/read_receipts', () => {
  it('lists, ascending, the users who marked a channel message read; never its sender; unreads are not listed', async () => {
    const m = await messageWorld();
    const id = await m.post(m.other, 'hello');
    expect(await readers(m, m.member, id)).toEqual([]);
    await markRead(m, m.member, id);
    await markRead(m, m.admin, id);
    expect(await readers(m, m.member, id)).toEqual(sorted(m.member, m.admin));
    // The sender's own copy is read, and not listed.
    expect(await readers(m, m.other, id)).not.toContain(m.other.id);
  });

  it('works for direct and group messages; a copy read by reacting (historical) counts', async () => {
    const m = await messageWorld();
    const direct = await m.send(m.other, { type: 'direct', to: JSON.stringify([m.member.id]), content: 'hi' });
    await markRead(m, m.member, direct);
    expect(await readers(m, m.other, direct)).toEqual([m.member.id]);
    const group = await m.send(m.other, { type: 'direct', to: JSON.stringify([m.member.id, m.admin.id]), content: 'hi all' });
    await markRead(m, m.admin, group);
    expect(await readers(m, m.member, group)).toEqual([m.admin.id]);
    // The bot never received the channel message: reacting gives it a read, historical copy.
    const channel = await m.post(m.other, 'public');
    must(await doAddReaction(m.w.ctx, m.w.as(m.bot), { message_id: channel, emoji_name: 'smile' }));
    expect(await readers(m, m.member, channel)).toEqual([m.bot.id]);
  });

  it('leaves out users whose send_read_receipts is off (bots too) and deactivated users', async () => {
    const m = await messageWorld();
    const id = await m.post(m.other, 'hello');
    await markRead(m, m.member, id);
    await markRead(m, m.admin, id);
    must(await doAddReaction(m.w.ctx, m.w.as(m.bot), { message_id: id, emoji_name: 'smile' }));
    expect(await readers(m, m.moderator, id)).toEqual(sorted(m.member, m.admin, m.bot));
    must(await doUpdateSettings(m.w.ctx, m.w.as(m.member), { send_read_receipts: false }));
    await setUser(m.w.ctx, m.bot, { settings: { send_read_receipts: false } });
    expect(await readers(m, m.moderator, id)).toEqual([m.admin.id]);
    await setUser(m.w.ctx, m.admin, { isActive: false });
    expect(await readers(m, m.moderator, id)).toEqual([]);
  });

  it('leaves out the users the caller muted and the users who muted the caller', async () => {
    const m = await messageWorld();
    const [hamlet, cordelia, othello] = [m.member, m.other, m.moderator];
    must(await doMuteUser(m.w.ctx, m.w.as(hamlet), { muted_user_id: cordelia.id }));
    must(await doMuteUser(m.w.ctx, m.w.as(cordelia), { muted_user_id: othello.id }));
    const id = await m.post(m.admin, 'read receipts');
    await markRead(m, hamlet, id);
    await markRead(m, cordelia, id);
    await markRead(m, othello, id);
    expect(await readers(m, m.admin, id)).toEqual(sorted(hamlet, cordelia, othello));
    expect(await readers(m, hamlet, id)).toEqual(sorted(hamlet, othello));
    expect(await readers(m, othello, id)).toEqual(sorted(hamlet, othello));
    expect(await readers(m, cordelia, id)).toEqual([cordelia.id]);
  });

  it('is refused when the realm turns read receipts off (PATCH /realm enable_read_receipts, shown by register)', async () => {
    const m = await messageWorld();
    const id = await m.post(m.other, 'hello');
    expect((await realmState(m)).realm_enable_read_receipts).toBe(true);
    m.drain();
    expect(must(await doUpdateRealm(m.w.ctx, m.w.as(m.admin), { enable_read_receipts: false }))).toEqual({ enable_read_receipts: false });
    expect(m.drain().map((p) => p.event)).toEqual([{ type: 'realm', op: 'update_dict', property: 'default', data: { enable_read_receipts: false } }]);
    expect((await realmState(m)).realm_enable_read_receipts).toBe(false);
    expectBadRequest(await receipts(m, m.member, id), 'Read receipts are disabled in this organization.');
    expectBadRequest(await doUpdateRealm.fromTransport(m.w.ctx, m.w.as(m.admin), { enable_read_receipts: 'yes' }), 'enable_read_receipts is not valid JSON');
    must(await doUpdateRealm(m.w.ctx, m.w.as(m.admin), { enable_read_receipts: true }));
    expect(await readers(m, m.member, id)).toEqual([]);
  });

  it('refuses messages the caller may not read, unknown and other realms\' messages, before the realm setting', async () => {
    const m = await messageWorld();
    const far = await secondRealm(m.w.ctx);
    const secret = await m.post(m.admin, 'private', 'plans', 'secret');
    const farSent = await doSendMessage(m.w.ctx, { realm: far.realm, user: far.owner }, { type: 'direct', to: JSON.stringify([far.owner.id]), content: 'mine' });
    const farMessage = (must(farSent)).id;
    expectBadRequest(await receipts(m, m.other, secret), 'Invalid message(s)');
    expectBadRequest(await receipts(m, m.member, 999_999), 'Invalid message(s)');
    expectBadRequest(await receipts(m, m.member, farMessage), 'Invalid message(s)');
    expectBadRequest(await receipts(m, m.member, 'abc'), 'message_id is not an integer');
    expect(await readers(m, m.member, secret)).toEqual([]);
    must(await doUpdateRealm(m.w.ctx, m.w.as(m.admin), { enable_read_receipts: false }));
    expectBadRequest(await receipts(m, m.other, secret), 'Invalid message(s)');
  });
});
