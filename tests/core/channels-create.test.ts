/** POST /channels/create (FL 417; the OpenAPI's create-channel). */
import { doCreateChannel } from '@teamchat/core';
import { describe, expect, it } from 'vitest';
import { must } from '../helpers/core.js';
import { channel, channelWorld, ids, recipientsOf, subscribersOf } from './channel-helpers.js';
import { expectBadRequest, expectError, secondRealm } from './fixtures.js';

const create = (params: Record<string, unknown>) => ({ subscribers: '[]', ...params });

describe('POST /channels/create', () => {
  it('creates one channel, subscribes exactly the listed users and answers its ID', async () => {
    const { w, member, other, admin, drain } = await channelWorld();
    drain();
    const { id } = must(await doCreateChannel.fromTransport(w.ctx, w.as(member), create({ name: ' Denmark ', description: 'A\ncountry', subscribers: JSON.stringify([other.id]) })));
    const stream = await channel(w, 'denmark');
    expect(stream).toMatchObject({ id, name: 'Denmark', description: 'A country', inviteOnly: false, creatorId: member.id });
    expect(await subscribersOf(w, stream)).toEqual([other.id]);
    const published = drain();
    expect(recipientsOf(published, 'stream', 'create')[0]).toEqual(expect.arrayContaining(ids(admin, member, other)));
    expect(recipientsOf(published, 'subscription', 'add')).toEqual([[other.id]]);
  });

  it('takes the creation settings: private with shared history, default channel, group settings', async () => {
    const { w, admin, member } = await channelWorld();
    const { id } = must(
      await doCreateChannel.fromTransport(
        w.ctx,
        w.as(admin),
        create({ name: 'secret', invite_only: 'true', history_public_to_subscribers: 'true', subscribers: JSON.stringify([admin.id, member.id]), can_send_message_group: JSON.stringify({ direct_members: [admin.id], direct_subgroups: [] }) }),
      ),
    );
    const stream = await channel(w, 'secret');
    expect(stream).toMatchObject({ id, inviteOnly: true, historyPublicToSubscribers: true });
    expect(stream.groupSettings.can_send_message_group).toEqual({ direct_members: [admin.id], direct_subgroups: [] });
    expect(await subscribersOf(w, stream)).toEqual(ids(admin, member));
    must(await doCreateChannel.fromTransport(w.ctx, w.as(admin), create({ name: 'lobby', is_default_stream: 'true' })));
    const defaults = await w.ctx.storage.read((tx) => tx.defaultStreams.list(w.realm.id));
    expect(defaults).toContain((await channel(w, 'lobby')).id);
  });

  it('refuses an existing name in any case with HTTP 409', async () => {
    const { w, member } = await channelWorld();
    must(await doCreateChannel.fromTransport(w.ctx, w.as(member), create({ name: 'Denmark' })));
    expectError(await doCreateChannel.fromTransport(w.ctx, w.as(member), create({ name: 'denmark' })), 'CHANNEL_ALREADY_EXISTS', "Channel 'Denmark' already exists", 409);
  });

  it('refuses guests, members without the creation permission, and a default private channel', async () => {
    const { w, guest, member } = await channelWorld();
    expectBadRequest(await doCreateChannel.fromTransport(w.ctx, w.as(guest), create({ name: 'g' })), 'Not allowed for guest users');
    expectBadRequest(await doCreateChannel.fromTransport(w.ctx, w.as(member), create({ name: 'd', is_default_stream: 'true' })), 'Insufficient permission');
    expectError(await doCreateChannel.fromTransport(w.ctx, w.as(member), create({ name: 'r', message_retention_days: '30' })), 'UNAUTHORIZED_PRINCIPAL', 'Must be an organization owner');
    expect(await w.ctx.storage.read((tx) => tx.streams.byName(w.realm.id, 'd'))).toBeUndefined();
  });

  it('refuses bad names and unknown, deactivated or other realms’ subscribers without creating anything', async () => {
    const { w, member } = await channelWorld();
    const { owner: stranger } = await secondRealm(w.ctx);
    expectBadRequest(await doCreateChannel.fromTransport(w.ctx, w.as(member), create({ name: '   ' })), "Channel name can't be empty.");
    expectBadRequest(await doCreateChannel.fromTransport(w.ctx, w.as(member), create({ name: 'x'.repeat(61) })), 'Channel name too long (limit: 60 characters).');
    expectBadRequest(await doCreateChannel.fromTransport(w.ctx, w.as(member), create({ name: 'a\u0007b' })), 'Invalid character in channel name, at position 2.');
    expectBadRequest(await doCreateChannel.fromTransport(w.ctx, w.as(member), create({ name: 'x', subscribers: JSON.stringify([99999]) })), 'No such user');
    expectBadRequest(await doCreateChannel.fromTransport(w.ctx, w.as(member), create({ name: 'x', subscribers: JSON.stringify([stranger.id]) })), 'No such user');
    expect(await w.ctx.storage.read((tx) => tx.streams.byName(w.realm.id, 'x'))).toBeUndefined();
  });

  it('validates the parameters: subscribers required and a JSON list of integers, name bounded', async () => {
    const { w, member } = await channelWorld();
    const missing = await doCreateChannel.fromTransport(w.ctx, w.as(member), { name: 'x' });
    expect(missing.isErr() && missing.error.code).toBe('REQUEST_VARIABLE_MISSING');
    const wrong = await doCreateChannel.fromTransport(w.ctx, w.as(member), { name: 'x', subscribers: ["a"] });
    expect(wrong.isErr() && wrong.error.code).toBe('BAD_REQUEST');
    const huge = await doCreateChannel.fromTransport(w.ctx, w.as(member), create({ name: 'x'.repeat(100_000) }));
    expect(huge.isErr()).toBe(true);
  });
});
