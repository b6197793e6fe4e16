/** GET /users/{user_id}/subscriptions/{stream_id}: is_subscribed, and the reference's errors. */
import { doDeactivateUser, doSubscribe, doUnsubscribe, getSubscriptionStatus } from '@teamchat/core';
import { describe, expect, it } from 'vitest';
import { must } from '../helpers/core.js';
import { channel, channelWorld, subscribe } from './channel-helpers.js';
import { expectBadRequest, expectError, secondRealm } from './fixtures.js';
import { accessWorld, as, setAccessGroup } from './user-access-helpers.js';

const status = (cw: Awaited<ReturnType<typeof channelWorld>>, caller: typeof cw.member, userId: number | string, streamId: number | string) =>
  getSubscriptionStatus.fromTransport(cw.w.ctx, cw.w.as(caller), { user_id: userId, stream_id: streamId });

describe('getSubscriptionStatus', () => {
  it('answers whether the user is subscribed now: before, during and after a subscription', async () => {
    const cw = await channelWorld();
    await subscribe(cw.w, cw.member, ['garden']);
    const garden = await channel(cw.w, 'garden');
    expect(must(await status(cw, cw.other, cw.member.id, garden.id))).toEqual({ is_subscribed: true });
    expect(must(await status(cw, cw.member, cw.other.id, garden.id))).toEqual({ is_subscribed: false });
    must(await doUnsubscribe(cw.w.ctx, cw.w.as(cw.member), { subscriptions: ["garden"] }));
    // An inactive row is not a subscription.
    expect(must(await status(cw, cw.other, cw.member.id, garden.id))).toEqual({ is_subscribed: false });
  });

  it('shows private channels to their subscribers and to administrators, and hides them from others', async () => {
    const cw = await channelWorld();
    await subscribe(cw.w, cw.member, ['vault'], { invite_only: true });
    const vault = await channel(cw.w, 'vault');
    expect(must(await status(cw, cw.member, cw.member.id, vault.id))).toEqual({ is_subscribed: true });
    expect(must(await status(cw, cw.admin, cw.member.id, vault.id))).toEqual({ is_subscribed: true });
    // To a member who may not see it, a private channel does not exist.
    expectBadRequest(await status(cw, cw.other, cw.member.id, vault.id), 'Invalid channel ID');
    expectBadRequest(await status(cw, cw.guest, cw.member.id, vault.id), 'Invalid channel ID');
  });

  it('refuses unknown and other realms’ channels alike', async () => {
    const cw = await channelWorld();
    await subscribe(cw.w, cw.member, ['garden']);
    const other = await secondRealm(cw.w.ctx);
    must(await doSubscribe(cw.w.ctx, { realm: other.realm, user: other.owner }, { subscriptions: [{"name":"abroad"}] }));
    const abroad = await cw.w.ctx.storage.read((tx) => tx.streams.byName(other.realm.id, 'abroad'));
    expectBadRequest(await status(cw, cw.member, cw.member.id, 99999), 'Invalid channel ID');
    expectBadRequest(await status(cw, cw.member, cw.member.id, abroad!.id), 'Invalid channel ID');
  });

  it('refuses unknown users, other realms’ users, bots and deactivated users as the reference does', async () => {
    const cw = await channelWorld();
    await subscribe(cw.w, cw.member, ['garden']);
    const garden = await channel(cw.w, 'garden');
    const other = await secondRealm(cw.w.ctx);
    expectBadRequest(await status(cw, cw.member, 99999, garden.id), 'No such user');
    expectBadRequest(await status(cw, cw.member, other.owner.id, garden.id), 'No such user');
    expectBadRequest(await status(cw, cw.member, cw.bot.id, garden.id), 'No such user');
    must(await doDeactivateUser(cw.w.ctx, cw.w.as(cw.w.owner), { user_id: cw.other.id }));
    expectBadRequest(await status(cw, cw.member, cw.other.id, garden.id), 'User is deactivated');
  });

  it('refuses a user the guest may not access under can_access_all_users_group', async () => {
    const { w, guest, stranger, channelmate } = await accessWorld();
    await setAccessGroup(w, 'role:members');
    const garden = await w.ctx.storage.read((tx) => tx.streams.byName(w.realm.id, 'garden'));
    const ask = async (userId: number) => getSubscriptionStatus(w.ctx, await as(w, guest), { user_id: userId, stream_id: garden!.id });
    expectBadRequest(await ask(stranger.id), 'Insufficient permission');
    expect(must(await ask(channelmate.id))).toEqual({ is_subscribed: true });
  });

  it('rejects malformed IDs and needs a user', async () => {
    const cw = await channelWorld();
    expectBadRequest(await status(cw, cw.member, 'abc', 1), 'user_id is not an integer');
    expectBadRequest(await status(cw, cw.member, cw.member.id, '-1'), 'stream_id is not an integer');
    expectError(await getSubscriptionStatus(cw.w.ctx, { realm: cw.w.realm, user: null }, { user_id: 1, stream_id: 1 }), 'UNAUTHORIZED', 'Not logged in: API authentication or user session required', 401);
  });
});
