/**
 * folder_id of channels: set on creation (POST /users/me/subscriptions) and by PATCH
 * /streams/{id} (null removes it), in channel records and stream/update events, and refused for
 * unknown, archived or another realm's folders.
 */
import { doCreateChannelFolder, doSubscribe, doUpdateChannelFolder, doUpdateStream, getStreams } from '@teamchat/core';
import { describe, expect, it } from 'vitest';
import { must } from '../helpers/core.js';
import { channel, channelWorld, ids, names, recipientsOf, subscribe } from './channel-helpers.js';
import { expectBadRequest, secondRealm } from './fixtures.js';

type W = Awaited<ReturnType<typeof channelWorld>>;
const newFolder = async (c: W, name: string) =>
  (must(await doCreateChannelFolder(c.w.ctx, c.w.as(c.admin), { name, description: '' }))).channel_folder_id;

describe('folder_id on channel creation', () => {
  it('puts new channels in the folder, shown in the channel object of the stream/create event', async () => {
    const c = await channelWorld();
    const folder = await newFolder(c, 'Frontend');
    c.drain();
    await subscribe(c.w, c.member, ['Denmark'], { folder_id: folder });
    expect((await channel(c.w, 'Denmark')).folderId).toBe(folder);
    const created = c.drain().find((p) => p.event.type === 'stream' && p.event.op === 'create')!;
    expect((created.event.streams as Array<Record<string, unknown>>)[0]).toMatchObject({ name: 'Denmark', folder_id: folder });
    const streams = must(await getStreams(c.w.ctx, c.w.as(c.other), {})).streams;
    expect(streams.find((s) => s.name === 'Denmark')).toMatchObject({ folder_id: folder });
  });

  it('refuses unknown, archived and foreign folders, and bad values, creating nothing', async () => {
    const c = await channelWorld();
    const archived = await newFolder(c, 'Old');
    must(await doUpdateChannelFolder(c.w.ctx, c.w.as(c.admin), { channel_folder_id: archived, is_archived: true }));
    const other = await secondRealm(c.w.ctx);
    const foreign = (must(await doCreateChannelFolder(c.w.ctx, { realm: other.realm, user: other.owner }, { name: 'F', description: '' }))).channel_folder_id;
    c.drain();
    const create = (folderId: string) => doSubscribe.fromTransport(c.w.ctx, c.w.as(c.member), { subscriptions: names('Denmark'), folder_id: folderId });
    for (const id of [999_999, archived, foreign]) expectBadRequest(await create(String(id)), 'Invalid channel folder ID');
    expectBadRequest(await create('"1"'), 'folder_id is not an integer');
    expectBadRequest(await create('x'), 'folder_id is not valid JSON');
    expect(await c.w.ctx.storage.read((tx) => tx.streams.byName(c.w.realm.id, 'Denmark'))).toBeUndefined();
    expect(c.drain()).toEqual([]);
  });
});

describe('folder_id on PATCH /streams/{stream_id}', () => {
  it('moves a channel into a folder and out again (null), announced to those who may see the channel', async () => {
    const c = await channelWorld();
    const folder = await newFolder(c, 'Frontend');
    await subscribe(c.w, c.member, ['secret'], { invite_only: true });
    const secret = await channel(c.w, 'secret');
    c.drain();
    must(await doUpdateStream(c.w.ctx, c.w.as(c.member), { stream_id: secret.id, folder_id: folder }));
    expect((await channel(c.w, 'secret')).folderId).toBe(folder);
    const published = c.drain();
    expect(published.map((p) => p.event)).toEqual([
      { type: 'stream', op: 'update', stream_id: secret.id, name: 'secret', property: 'folder_id', value: folder },
    ]);
    // A private channel: its subscriber (the creator) and the administrators, nobody else.
    expect(recipientsOf(published, 'stream', 'update')).toEqual([ids(c.w.owner, c.admin, c.member)]);
    must(await doUpdateStream(c.w.ctx, c.w.as(c.admin), { stream_id: secret.id, folder_id: null }));
    expect((await channel(c.w, 'secret')).folderId).toBeNull();
    expect(c.drain().map((p) => p.event.value)).toEqual([null]);
    // Setting the folder it is already in sends nothing.
    must(await doUpdateStream(c.w.ctx, c.w.as(c.admin), { stream_id: secret.id, folder_id: null }));
    expect(c.drain()).toEqual([]);
  });

  it('refuses bad folders and those who may not administer the channel, changing nothing', async () => {
    const c = await channelWorld();
    const folder = await newFolder(c, 'Frontend');
    const archived = await newFolder(c, 'Old');
    must(await doUpdateChannelFolder(c.w.ctx, c.w.as(c.admin), { channel_folder_id: archived, is_archived: true }));
    await subscribe(c.w, c.member, ['Denmark']);
    const denmark = await channel(c.w, 'Denmark');
    c.drain();
    const patch = (user: W['admin'], folderId: string, extra: Record<string, unknown> = {}) =>
      doUpdateStream.fromTransport(c.w.ctx, c.w.as(user), { stream_id: String(denmark.id), folder_id: folderId, ...extra });
    expectBadRequest(await patch(c.admin, String(archived)), 'Invalid channel folder ID');
    expectBadRequest(await patch(c.admin, '999999'), 'Invalid channel folder ID');
    expectBadRequest(await patch(c.admin, 'true'), 'folder_id is not an integer');
    expectBadRequest(await patch(c.other, String(folder)), 'You do not have permission to administer this channel.');
    // All or nothing: the description before the refused folder is not kept.
    expectBadRequest(await patch(c.admin, '999999', { description: 'new' }), 'Invalid channel folder ID');
    expect(await channel(c.w, 'Denmark')).toEqual(denmark);
    expect(c.drain()).toEqual([]);
  });
});
