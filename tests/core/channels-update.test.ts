/**
 * PATCH /streams/{id}, DELETE /streams/{id} (archiving) and POST/DELETE /default_streams: the
 * changes, who may make them, the reference's errors, and the events with their recipients.
 */
import { doAddDefaultStream, doArchiveStream, doRemoveDefaultStream, doUnsubscribe, doUpdateStream } from '@teamchat/core';
import { describe, expect, it } from 'vitest';
import { must } from '../helpers/core.js';
import { channel, channelWorld, ids, queued, recipientsOf, register, row, subscribe } from './channel-helpers.js';
import { expectBadRequest, expectError, secondRealm } from './fixtures.js';

const patch = (w: Awaited<ReturnType<typeof channelWorld>>['w'], user: Parameters<typeof w.as>[0], streamId: number, input: Record<string, unknown>) =>
  doUpdateStream(w.ctx, w.as(user), { stream_id: streamId, ...input });

describe('PATCH /streams/{stream_id}: name and description', () => {
  it('renames, announcing the new name under the old one to everyone who can see the channel', async () => {
    const { w, admin, moderator, member, other, bot, drain } = await channelWorld();
    await subscribe(w, member, ['Denmark']);
    const stream = await channel(w, 'Denmark');
    drain();
    expect(must(await patch(w, admin, stream.id, { new_name: '  Danmark  ' }))).toEqual({});
    expect((await channel(w, 'danmark')).name).toBe('Danmark');
    const published = drain();
    expect(published.map((p) => p.event)).toEqual([
      { type: 'stream', op: 'update', stream_id: stream.id, name: 'Denmark', property: 'name', value: 'Danmark' },
    ]);
    expect(recipientsOf(published, 'stream', 'update')).toEqual([ids(w.owner, admin, moderator, member, other, bot)]);
    // Changing only the case is a rename too.
    must(await patch(w, admin, stream.id, { new_name: 'DANMARK' }));
    expect((await channel(w, 'danmark')).name).toBe('DANMARK');
  });

  it('refuses the same name, a taken one and invalid ones', async () => {
    const { w, admin, member } = await channelWorld();
    await subscribe(w, member, ['Denmark', 'Sweden']);
    const stream = await channel(w, 'Denmark');
    expectBadRequest(await patch(w, admin, stream.id, { new_name: ' Denmark ' }), 'Channel already has that name.');
    expectError(await patch(w, admin, stream.id, { new_name: 'sweden' }), 'CHANNEL_ALREADY_EXISTS', "Channel 'sweden' already exists", 400);
    expectBadRequest(await patch(w, admin, stream.id, { new_name: '  ' }), "Channel name can't be empty.");
    expectBadRequest(await patch(w, admin, stream.id, { new_name: 'n'.repeat(61) }), 'Channel name too long (limit: 60 characters).');
    expectBadRequest(await patch(w, admin, stream.id, { new_name: 'a\u0000b' }), 'Invalid character in channel name, at position 2.');
  });

  it('changes the description (newlines become spaces), with its rendering in the event', async () => {
    const { w, admin, member, drain } = await channelWorld();
    await subscribe(w, member, ['Denmark']);
    const stream = await channel(w, 'Denmark');
    drain();
    must(await patch(w, admin, stream.id, { description: 'Line one\nline <two>' }));
    expect(await channel(w, 'Denmark')).toMatchObject({ description: 'Line one line <two>', renderedDescription: '<p>Line one line &lt;two&gt;</p>' });
    expect(drain().map((p) => p.event)).toEqual([
      {
        type: 'stream',
        op: 'update',
        stream_id: stream.id,
        name: 'Denmark',
        property: 'description',
        value: 'Line one line <two>',
        rendered_description: '<p>Line one line &lt;two&gt;</p>',
      },
    ]);
    expectBadRequest(await patch(w, admin, stream.id, { description: 'd'.repeat(1025) }), 'description is too long (limit: 1024 characters)');
  });

  it('applies everything or nothing', async () => {
    const { w, admin, member, drain } = await channelWorld();
    await subscribe(w, member, ['Denmark', 'Sweden']);
    const stream = await channel(w, 'Denmark');
    drain();
    expectError(await patch(w, admin, stream.id, { description: 'new', is_private: 'true', new_name: 'Sweden' }), 'CHANNEL_ALREADY_EXISTS', "Channel 'Sweden' already exists");
    expect(await channel(w, 'Denmark')).toEqual(stream);
    expect(drain()).toEqual([]);
  });
});

describe('PATCH /streams/{stream_id}: who may', () => {
  it('lets administrators and the channel’s creator; tells others who can read it that they may not; hides it from the rest', async () => {
    const { w, admin, member, other, guest } = await channelWorld();
    await subscribe(w, member, ['Denmark']);
    await subscribe(w, member, ['secret'], { invite_only: true });
    const [denmark, secret] = [await channel(w, 'Denmark'), await channel(w, 'secret')];
    must(await patch(w, member, denmark.id, { description: 'mine' }));
    must(await patch(w, admin, secret.id, { new_name: 'renamed secret' }));
    expectBadRequest(await patch(w, other, denmark.id, { description: 'x' }), 'You do not have permission to administer this channel.');
    expectBadRequest(await patch(w, other, secret.id, { description: 'x' }), 'Invalid channel ID');
    expectBadRequest(await patch(w, guest, denmark.id, { description: 'x' }), 'Invalid channel ID');
    await subscribe(w, member, ['Denmark'], { principals: [guest.id] });
    expectBadRequest(await patch(w, guest, denmark.id, { description: 'x' }), 'You do not have permission to administer this channel.');
    expectBadRequest(await patch(w, admin, 9999, { description: 'x' }), 'Invalid channel ID');
    expectBadRequest(await doUpdateStream.fromTransport(w.ctx, w.as(admin), { stream_id: 'abc' }), 'stream_id is not an integer');
    const foreign = await secondRealm(w.ctx);
    expectBadRequest(await doUpdateStream(w.ctx, { realm: foreign.realm, user: foreign.owner }, { stream_id: denmark.id, description: 'x' }), 'Invalid channel ID');
    expectError(await patch(w, null, denmark.id, {}), 'UNAUTHORIZED', 'Not logged in: API authentication or user session required', 401);
  });
});

describe('PATCH /streams/{stream_id}: privacy', () => {
  it('making a channel private: update to those who still see it, stream/delete to those who no longer do', async () => {
    const { w, admin, moderator, member, other, guest, bot, drain } = await channelWorld();
    await subscribe(w, member, ['Denmark'], { principals: [member.id, guest.id] });
    const stream = await channel(w, 'Denmark');
    drain();
    must(await patch(w, admin, stream.id, { is_private: 'true' }));
    expect(await channel(w, 'Denmark')).toMatchObject({ inviteOnly: true, historyPublicToSubscribers: false, isWebPublic: false });
    const published = drain();
    expect(published.map((p) => [p.event, [...p.userIds].sort((a, b) => a - b)])).toEqual([
      [
        { type: 'stream', op: 'update', stream_id: stream.id, name: 'Denmark', property: 'invite_only', value: true, history_public_to_subscribers: false, is_web_public: false },
        ids(w.owner, admin, member, guest),
      ],
      [{ type: 'stream', op: 'delete', streams: [{ stream_id: stream.id }], stream_ids: [stream.id] }, ids(moderator, other, bot)],
    ]);
  });

  it('making a channel public: stream/create and the subscribers to those who newly see it', async () => {
    const { w, admin, moderator, member, other, bot, drain } = await channelWorld();
    await subscribe(w, member, ['secret'], { invite_only: true, history_public_to_subscribers: true });
    const stream = await channel(w, 'secret');
    drain();
    must(await patch(w, member, stream.id, { is_private: 'false' }));
    const published = drain();
    expect(published.map((p) => [`${p.event.type}/${p.event.op}`, [...p.userIds].sort((a, b) => a - b)])).toEqual([
      ['stream/update', ids(w.owner, admin, member)],
      ['stream/create', ids(moderator, other, bot)],
      ['subscription/peer_add', ids(moderator, other, bot)],
    ]);
    expect(published[1]!.event.streams).toEqual([expect.objectContaining({ stream_id: stream.id, invite_only: false, history_public_to_subscribers: true })]);
    expect(published[2]!.event).toEqual({ type: 'subscription', op: 'peer_add', stream_ids: [stream.id], user_ids: [member.id] });
  });

  it('checks the combination and the permissions as the reference does', async () => {
    const { w, admin, member } = await channelWorld();
    await subscribe(w, member, ['Denmark']);
    await subscribe(w, member, ['secret'], { invite_only: true });
    const [denmark, secret] = [await channel(w, 'Denmark'), await channel(w, 'secret')];
    expectBadRequest(await patch(w, admin, denmark.id, { history_public_to_subscribers: 'false' }), 'Invalid parameters');
    expectBadRequest(await patch(w, admin, denmark.id, { is_private: 'false', history_public_to_subscribers: 'false' }), 'Invalid parameters');
    expectBadRequest(await patch(w, admin, secret.id, { is_private: 'false' }), 'Channel content access is required.');
    expectBadRequest(await patch(w, member, denmark.id, { is_web_public: 'true' }), 'Web-public channels are not enabled.');
    expectBadRequest(await patch(w, member, denmark.id, { is_web_public: 'true', is_private: 'true' }), 'Invalid parameters');
    must(await doAddDefaultStream(w.ctx, w.as(admin), { stream_id: denmark.id }));
    expectBadRequest(await patch(w, admin, denmark.id, { is_private: 'true' }), 'A default channel cannot be private.');
    expectBadRequest(await patch(w, admin, secret.id, { is_default_stream: 'true' }), 'A default channel cannot be private.');
    expectBadRequest(await patch(w, member, denmark.id, { is_private: 'maybe' }), 'is_private is not valid JSON');
    // A private channel's history may be opened to its subscribers.
    must(await patch(w, member, secret.id, { history_public_to_subscribers: 'true' }));
    expect((await channel(w, 'secret')).historyPublicToSubscribers).toBe(true);
  });

  it('switches default status for administrators only, announcing default_streams to members', async () => {
    const { w, admin, member, guest, drain } = await channelWorld();
    await subscribe(w, member, ['Denmark']);
    const stream = await channel(w, 'Denmark');
    expectError(await patch(w, member, stream.id, { is_default_stream: 'true' }), 'UNAUTHORIZED_PRINCIPAL', 'Must be an organization administrator');
    drain();
    must(await patch(w, admin, stream.id, { is_default_stream: 'true' }));
    const published = drain();
    expect(published.map((p) => p.event)).toEqual([{ type: 'default_streams', default_streams: [stream.id] }]);
    expect(published[0]!.userIds).not.toContain(guest.id);
    must(await patch(w, admin, stream.id, { is_default_stream: 'true' }));
    expect(drain()).toEqual([]);
  });
});

describe('DELETE /streams/{stream_id}: archiving', () => {
  it('archives, keeps subscriptions, drops default status; archived_channels clients get update, the others delete', async () => {
    const { w, admin, member, other, drain } = await channelWorld();
    await subscribe(w, member, ['Denmark'], { principals: [member.id, other.id] });
    const stream = await channel(w, 'Denmark');
    must(await doAddDefaultStream(w.ctx, w.as(admin), { stream_id: stream.id }));
    const capable = await register(w, other, { event_types: '["stream", "default_streams"]', client_capabilities: '{"archived_channels": true}' });
    const legacy = await register(w, other, { event_types: '["stream", "default_streams"]' });
    drain();
    expect(must(await doArchiveStream(w.ctx, w.as(admin), { stream_id: stream.id }))).toEqual({});
    expect((await channel(w, 'Denmark')).isArchived).toBe(true);
    expect((await row(w, other, stream))!.active).toBe(true);
    expect(await w.ctx.storage.read((tx) => tx.defaultStreams.list(w.realm.id))).toEqual([]);
    const strip = (events: { id: number }[]) => events.map(({ id: _id, ...event }) => event);
    expect(strip(await queued(w, other, capable.queue_id))).toEqual([
      { type: 'default_streams', default_streams: [] },
      { type: 'stream', op: 'update', stream_id: stream.id, name: 'Denmark', property: 'is_archived', value: true },
    ]);
    expect(strip(await queued(w, other, legacy.queue_id))).toEqual([
      { type: 'default_streams', default_streams: [] },
      { type: 'stream', op: 'delete', streams: [{ stream_id: stream.id }], stream_ids: [stream.id] },
    ]);
    expectBadRequest(await doArchiveStream(w.ctx, w.as(admin), { stream_id: stream.id }), 'Channel is already deactivated');
  });

  it('lets the channel’s creator archive it, not other members; hides private channels from outsiders', async () => {
    const { w, member, other } = await channelWorld();
    await subscribe(w, member, ['Denmark']);
    await subscribe(w, member, ['secret'], { invite_only: true });
    const [denmark, secret] = [await channel(w, 'Denmark'), await channel(w, 'secret')];
    expectBadRequest(await doArchiveStream(w.ctx, w.as(other), { stream_id: denmark.id }), 'You do not have permission to administer this channel.');
    expectBadRequest(await doArchiveStream(w.ctx, w.as(other), { stream_id: secret.id }), 'Invalid channel ID');
    must(await doArchiveStream(w.ctx, w.as(member), { stream_id: denmark.id }));
  });

  it('unarchives through PATCH is_archived=false: update for archived_channels clients, create for the others', async () => {
    const { w, admin, member, other } = await channelWorld();
    await subscribe(w, member, ['Denmark']);
    await subscribe(w, admin, ['empty secret'], { invite_only: true });
    const [denmark, secret] = [await channel(w, 'Denmark'), await channel(w, 'empty secret')];
    expectBadRequest(await patch(w, admin, denmark.id, { is_archived: 'false' }), 'Channel is not currently deactivated');
    must(await doArchiveStream(w.ctx, w.as(admin), { stream_id: denmark.id }));
    const capable = await register(w, other, { event_types: '["stream"]', client_capabilities: '{"archived_channels": true}' });
    const legacy = await register(w, other, { event_types: '["stream"]' });
    must(await patch(w, admin, denmark.id, { is_archived: 'false' }));
    expect((await channel(w, 'Denmark')).isArchived).toBe(false);
    expect((await queued(w, other, capable.queue_id)).map((e) => [e.op, e.property, e.value])).toEqual([['update', 'is_archived', false]]);
    const [created] = await queued(w, other, legacy.queue_id);
    expect(created).toEqual({ id: 0, type: 'stream', op: 'create', streams: [expect.objectContaining({ stream_id: denmark.id, is_archived: false })] });
    // Archiving true through PATCH is not supported; a private channel nobody is in cannot come back.
    must(await patch(w, admin, denmark.id, { is_archived: 'true' }));
    expect((await channel(w, 'Denmark')).isArchived).toBe(false);
    must(await doUnsubscribe(w.ctx, w.as(admin), { subscriptions: [secret.name] }));
    must(await doArchiveStream(w.ctx, w.as(admin), { stream_id: secret.id }));
    expectBadRequest(await patch(w, admin, secret.id, { is_archived: 'false' }), 'Channel is private and have no subscribers');
  });
});

describe('POST and DELETE /default_streams', () => {
  it('adds and removes default channels, announcing the list to every active non-guest', async () => {
    const { w, admin, moderator, member, other, bot, drain } = await channelWorld();
    await subscribe(w, member, ['Denmark']);
    const stream = await channel(w, 'Denmark');
    drain();
    expect(must(await doAddDefaultStream(w.ctx, w.as(admin), { stream_id: stream.id }))).toEqual({});
    const published = drain();
    expect(published.map((p) => [p.event, [...p.userIds].sort((a, b) => a - b)])).toEqual([
      [{ type: 'default_streams', default_streams: [stream.id] }, ids(w.owner, admin, moderator, member, other, bot)],
    ]);
    must(await doAddDefaultStream(w.ctx, w.as(admin), { stream_id: stream.id }));
    expect(drain()).toEqual([]);
    expect(must(await doRemoveDefaultStream(w.ctx, w.as(admin), { stream_id: stream.id }))).toEqual({});
    expect(drain().map((p) => p.event)).toEqual([{ type: 'default_streams', default_streams: [] }]);
  });

  it('refuses non-administrators, private and unknown channels, and bad input', async () => {
    const { w, admin, member } = await channelWorld();
    await subscribe(w, admin, ['secret'], { invite_only: true });
    await subscribe(w, member, ['hidden'], { invite_only: true });
    const [secret, hidden] = [await channel(w, 'secret'), await channel(w, 'hidden')];
    expectError(await doAddDefaultStream(w.ctx, w.as(member), { stream_id: secret.id }), 'UNAUTHORIZED_PRINCIPAL', 'Must be an organization administrator');
    expectError(await doRemoveDefaultStream(w.ctx, w.as(member), { stream_id: secret.id }), 'UNAUTHORIZED_PRINCIPAL', 'Must be an organization administrator');
    expectBadRequest(await doAddDefaultStream(w.ctx, w.as(admin), { stream_id: secret.id }), 'Private channels cannot be made default.');
    expectBadRequest(await doAddDefaultStream(w.ctx, w.as(admin), { stream_id: hidden.id }), 'Invalid channel ID');
    expectBadRequest(await doAddDefaultStream(w.ctx, w.as(admin), { stream_id: 9999 }), 'Invalid channel ID');
    expectBadRequest(await doRemoveDefaultStream(w.ctx, w.as(admin), { stream_id: 9999 }), 'Invalid channel ID');
    expectBadRequest(await doAddDefaultStream.fromTransport(w.ctx, w.as(admin), { stream_id: 'x' }), 'stream_id is not valid JSON');
    expectError(await doAddDefaultStream.fromTransport(w.ctx, w.as(admin), {}), 'REQUEST_VARIABLE_MISSING', "Missing 'stream_id' argument", 400, { var_name: 'stream_id' });
  });
});
