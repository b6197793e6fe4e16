/**
 * Channel folders: POST /channel_folders/create, GET /channel_folders, PATCH
 * /channel_folders/{id} and PATCH /channel_folders (reorder), their errors, the channel_folder
 * events and who receives them, and the register section kept current by those events.
 */
import {
  doCreateChannelFolder,
  doRegister,
  doReorderChannelFolders,
  doUpdateChannelFolder,
  doUpdateStream,
  getChannelFolders,
  updateRealmAsOperator,
} from '@teamchat/core';
import { describe, expect, it } from 'vitest';
import { must } from '../helpers/core.js';
import { channel, channelWorld, ids, queued, register, setStream, subscribe } from './channel-helpers.js';
import { expectBadRequest, expectError, failure, secondRealm } from './fixtures.js';

type W = Awaited<ReturnType<typeof channelWorld>>;
const create = (c: W, user: W['admin'], input: Record<string, unknown>) => doCreateChannelFolder.fromTransport(c.w.ctx, c.w.as(user), input);
const update = (c: W, user: W['admin'], id: number, input: Record<string, unknown>) =>
  doUpdateChannelFolder(c.w.ctx, c.w.as(user), { channel_folder_id: id, ...input });
const list = async (c: W, user: W['admin'], input: Record<string, unknown> = {}) =>
  must(await getChannelFolders(c.w.ctx, c.w.as(user), input)).channel_folders;
const folderId = async (c: W, name: string, description = '') =>
  (must(await create(c, c.admin, { name, description }))).channel_folder_id;

describe('POST /channel_folders/create', () => {
  it('creates a folder with its rendered description, announced to every active user, guests included', async () => {
    const c = await channelWorld();
    c.drain();
    const result = must(await create(c, c.admin, { name: 'Frontend', description: 'Channels for <frontend>' }));
    expect(result).toEqual({ channel_folder_id: expect.any(Number) });
    const folder = {
      id: result.channel_folder_id,
      name: 'Frontend',
      description: 'Channels for <frontend>',
      rendered_description: '<p>Channels for &lt;frontend&gt;</p>',
      creator_id: c.admin.id,
      date_created: Math.floor(c.w.ctx.clock.now() / 1000),
      is_archived: false,
      order: 0,
    };
    const published = c.drain();
    expect(published.map((p) => p.event)).toEqual([{ type: 'channel_folder', op: 'add', channel_folder: folder }]);
    expect([...published[0]!.userIds].sort((a, b) => a - b)).toEqual(ids(c.w.owner, c.admin, c.moderator, c.member, c.other, c.guest, c.bot));
    expect(await list(c, c.guest)).toEqual([folder]);
    // An empty description renders as nothing, as the reference's.
    const second = await folderId(c, 'Backend');
    expect((await list(c, c.member)).find((f) => f.id === second)).toMatchObject({ description: '', rendered_description: '', order: 1 });
  });

  it('is for administrators only', async () => {
    const c = await channelWorld();
    c.drain();
    for (const user of [c.moderator, c.member, c.guest]) {
      expectError(await create(c, user, { name: 'Frontend', description: '' }), 'UNAUTHORIZED_PRINCIPAL', 'Must be an organization administrator');
    }
    must(await create(c, c.w.owner, { name: 'Owners can', description: '' }));
    expect(c.drain().map((p) => p.event.op)).toEqual(['add']);
  });

  it('refuses names in use (in any case), empty or unprintable names, and bad parameters, writing nothing', async () => {
    const c = await channelWorld();
    await folderId(c, 'Frontend');
    c.drain();
    expectBadRequest(await create(c, c.admin, { name: 'Frontend', description: '' }), 'Channel folder name already in use');
    expectBadRequest(await create(c, c.admin, { name: 'frontEND', description: '' }), 'Channel folder name already in use');
    expectBadRequest(await create(c, c.admin, { name: '  ', description: '' }), "Channel folder name can't be empty.");
    expectBadRequest(await create(c, c.admin, { name: 'abc\u0000', description: '' }), 'Invalid character in channel folder name, at position 4.');
    expectBadRequest(await create(c, c.admin, { name: 'n'.repeat(61), description: '' }), 'name is too long (limit: 60 characters)');
    expectBadRequest(await create(c, c.admin, { name: 'Long', description: 'd'.repeat(1025) }), 'description is too long (limit: 1024 characters)');
    expectError(await create(c, c.admin, { name: 'No description' }), 'REQUEST_VARIABLE_MISSING', 'Missing \'description\' argument', 400, { var_name: 'description' });
    expectError(await create(c, c.admin, { description: '' }), 'REQUEST_VARIABLE_MISSING', 'Missing \'name\' argument', 400, { var_name: 'name' });
    expectBadRequest(await create(c, c.admin, { name: 5, description: '' }), 'name is not a string');
    expect(failure(await doCreateChannelFolder(c.w.ctx, c.w.as(null), { name: 'x', description: '' })).code).toBe('UNAUTHORIZED');
    expect((await list(c, c.admin)).map((f) => f.name)).toEqual(['Frontend']);
    expect(c.drain()).toEqual([]);
  });

  it('keeps realms apart: the same name elsewhere is free, and another realm never sees the folder', async () => {
    const c = await channelWorld();
    const id = await folderId(c, 'Frontend');
    const other = await secondRealm(c.w.ctx);
    const as = { realm: other.realm, user: other.owner };
    must(await doCreateChannelFolder(c.w.ctx, as, { name: 'Frontend', description: '' }));
    expect((must(await getChannelFolders(c.w.ctx, as, {})).channel_folders).length).toBe(1);
    expectBadRequest(await doUpdateChannelFolder(c.w.ctx, as, { channel_folder_id: id, name: 'Mine' }), 'Invalid channel folder ID');
    expect((await list(c, c.admin))[0]).toMatchObject({ id, name: 'Frontend' });
  });
});

describe('GET /channel_folders', () => {
  it('lists folders in their order, archived ones only with include_archived', async () => {
    const c = await channelWorld();
    const [a, b, d] = [await folderId(c, 'A'), await folderId(c, 'B'), await folderId(c, 'D')];
    must(await update(c, c.admin, b, { is_archived: 'true' }));
    must(await doReorderChannelFolders(c.w.ctx, c.w.as(c.admin), { order: [d, b, a] }));
    expect((await list(c, c.member)).map((f) => f.id)).toEqual([d, a]);
    expect((await list(c, c.member, { include_archived: 'true' })).map((f) => [f.id, f.order, f.is_archived])).toEqual([[d, 0, false], [b, 1, true], [a, 2, false]]);
    expectBadRequest(await getChannelFolders.fromTransport(c.w.ctx, c.w.as(c.member), { include_archived: 'yes' }), 'include_archived is not valid JSON');
    expect(failure(await getChannelFolders(c.w.ctx, c.w.as(null), {})).code).toBe('UNAUTHORIZED');
  });
});

describe('PATCH /channel_folders/{id}', () => {
  it('renames, describes and archives, one update event per change, only for what changes', async () => {
    const c = await channelWorld();
    const id = await folderId(c, 'Frontend', 'old');
    c.drain();
    must(await update(c, c.admin, id, { name: 'Web', description: 'Channels for **web**', is_archived: 'true' }));
    const published = c.drain();
    expect(published.map((p) => p.event)).toEqual([
      { type: 'channel_folder', op: 'update', channel_folder_id: id, data: { name: 'Web' } },
      { type: 'channel_folder', op: 'update', channel_folder_id: id, data: { description: 'Channels for **web**', rendered_description: '<p>Channels for <strong>web</strong></p>' } },
      { type: 'channel_folder', op: 'update', channel_folder_id: id, data: { is_archived: true } },
    ]);
    for (const p of published) expect(p.userIds.length).toBe(7);
    // The same values again change nothing and send nothing; the case of its own name may change.
    must(await update(c, c.admin, id, { name: 'Web', description: 'Channels for **web**', is_archived: 'true' }));
    expect(c.drain()).toEqual([]);
    must(await update(c, c.admin, id, { name: 'WEB', is_archived: 'false', description: '' }));
    expect(c.drain().map((p) => p.event.data)).toEqual([{ name: 'WEB' }, { description: '', rendered_description: '' }, { is_archived: false }]);
  });

  it('refuses non-administrators, unknown IDs, taken and invalid names and bad input, writing and sending nothing', async () => {
    const c = await channelWorld();
    const id = await folderId(c, 'Frontend');
    await folderId(c, 'Backend');
    c.drain();
    expectError(await update(c, c.moderator, id, { name: 'Web' }), 'UNAUTHORIZED_PRINCIPAL', 'Must be an organization administrator');
    expectBadRequest(await update(c, c.admin, 999_999, { name: 'Web' }), 'Invalid channel folder ID');
    expectBadRequest(await update(c, c.admin, id, { name: 'backEND' }), 'Channel folder name already in use');
    expectBadRequest(await update(c, c.admin, id, { name: '' }), "Channel folder name can't be empty.");
    expectBadRequest(await update(c, c.admin, id, { name: 'abc\u0000' }), 'Invalid character in channel folder name, at position 4.');
    expectBadRequest(await update(c, c.admin, id, { is_archived: 'maybe' }), 'is_archived is not valid JSON');
    expectBadRequest(await update(c, c.admin, id, { is_archived: '1' }), 'is_archived is not a boolean');
    expectBadRequest(await doUpdateChannelFolder.fromTransport(c.w.ctx, c.w.as(c.admin), { channel_folder_id: 'x' }), 'channel_folder_id is not an integer');
    // All or nothing: the description change before the failing rename is not kept.
    expectBadRequest(await update(c, c.admin, id, { description: 'new', name: 'Backend' }), 'Channel folder name already in use');
    expect((await list(c, c.admin))[0]).toMatchObject({ name: 'Frontend', description: '' });
    expect(c.drain()).toEqual([]);
  });

  it('refuses to archive a folder that holds a channel, archived channels included', async () => {
    const c = await channelWorld();
    const id = await folderId(c, 'Frontend');
    await subscribe(c.w, c.member, ['Denmark']);
    const denmark = await channel(c.w, 'Denmark');
    must(await doUpdateStream(c.w.ctx, c.w.as(c.admin), { stream_id: denmark.id, folder_id: id }));
    const refusal = 'You need to remove all the channels from this folder to archive it.';
    expectBadRequest(await update(c, c.admin, id, { is_archived: 'true' }), refusal);
    await setStream(c.w, denmark, { isArchived: true });
    expectBadRequest(await update(c, c.admin, id, { is_archived: 'true' }), refusal);
    await setStream(c.w, denmark, { folderId: null });
    must(await update(c, c.admin, id, { is_archived: 'true' }));
  });
});

describe('PATCH /channel_folders (reorder)', () => {
  it('orders every folder, announcing the order to everyone', async () => {
    const c = await channelWorld();
    const [a, b] = [await folderId(c, 'A'), await folderId(c, 'B')];
    c.drain();
    must(await doReorderChannelFolders(c.w.ctx, c.w.as(c.admin), { order: [b, a] }));
    const published = c.drain();
    expect(published.map((p) => p.event)).toEqual([{ type: 'channel_folder', op: 'reorder', order: [b, a] }]);
    expect(published[0]!.userIds.length).toBe(7);
    expect((await list(c, c.guest)).map((f) => f.name)).toEqual(['B', 'A']);
  });

  it('refuses incomplete, repeated or unknown IDs, other realms’ folders, bad JSON and non-administrators', async () => {
    const c = await channelWorld();
    const [a, b] = [await folderId(c, 'A'), await folderId(c, 'B')];
    const other = await secondRealm(c.w.ctx);
    const foreign = (must(await doCreateChannelFolder(c.w.ctx, { realm: other.realm, user: other.owner }, { name: 'F', description: '' }))).channel_folder_id;
    c.drain();
    const reorder = (user: W['admin'], order: string) => doReorderChannelFolders.fromTransport(c.w.ctx, c.w.as(user), { order });
    for (const order of [[a], [a, b, b], [a, a], [a, b, 999_999], [a, b, foreign], [b, foreign]]) {
      expectBadRequest(await reorder(c.admin, JSON.stringify(order)), 'Invalid order mapping.');
    }
    expectBadRequest(await reorder(c.admin, '[1,'), 'order is not valid JSON');
    expectBadRequest(await reorder(c.admin, '["a"]'), 'order[0] is not an integer');
    expectBadRequest(await reorder(c.admin, '{}'), 'order is not a list');
    expectError(await reorder(c.member, JSON.stringify([b, a])), 'UNAUTHORIZED_PRINCIPAL', 'Must be an organization administrator');
    expectError(await doReorderChannelFolders.fromTransport(c.w.ctx, c.w.as(c.admin), {}), 'REQUEST_VARIABLE_MISSING', "Missing 'order' argument", 400, { var_name: 'order' });
    expect((await list(c, c.admin)).map((f) => f.id)).toEqual([a, b]);
    expect(c.drain()).toEqual([]);
  });
});

describe('register: channel_folders', () => {
  it('holds every folder (archived too), and the events keep a client’s copy equal to a fresh register', async () => {
    const c = await channelWorld();
    const kept = await folderId(c, 'Kept');
    const before = await register(c.w, c.guest, { fetch_event_types: '["channel_folders"]' });
    expect(before.channel_folders.map((f: { id: number }) => f.id)).toEqual([kept]);
    const added = await folderId(c, 'Added', 'text');
    must(await update(c, c.admin, kept, { name: 'Renamed', description: 'about', is_archived: 'true' }));
    must(await doReorderChannelFolders(c.w.ctx, c.w.as(c.admin), { order: [added, kept] }));

    // A client applies the events as the reference's web app does.
    let folders: Array<Record<string, unknown>> = structuredClone(before.channel_folders) as Array<Record<string, unknown>>;
    for (const event of await queued(c.w, c.guest, before.queue_id)) {
      if (event.type !== 'channel_folder') continue;
      if (event.op === 'add') folders.push({ ...event.channel_folder });
      if (event.op === 'update') folders = folders.map((f) => (f.id === event.channel_folder_id ? { ...f, ...(event.data) } : f));
      if (event.op === 'reorder') {
        const order = event.order;
        folders = order.map((id, index) => ({ ...folders.find((f) => f.id === id)!, order: index }));
      }
    }
    const after = await register(c.w, c.guest, { fetch_event_types: '["channel_folders"]' });
    expect(folders).toEqual(after.channel_folders);
    expect(after.channel_folders.find((f: { id: number }) => f.id === kept)).toMatchObject({ is_archived: true, name: 'Renamed' });
  });

  it('shows spectators only the folders of web-public channels, and gives the limits', async () => {
    const c = await channelWorld();
    const [shown, hidden] = [await folderId(c, 'Shown'), await folderId(c, 'Hidden')];
    await subscribe(c.w, c.member, ['Public', 'Web']);
    await setStream(c.w, await channel(c.w, 'Web'), { isWebPublic: true, folderId: shown });
    await setStream(c.w, await channel(c.w, 'Public'), { folderId: hidden });
    must(await updateRealmAsOperator(c.w.ctx, c.w.realm, { webPublicAccessEnabled: true }));
    const realm = { ...c.w.realm, webPublicAccessEnabled: true };
    const spectator = must(await doRegister(c.w.ctx, { realm, user: null }, { fetch_event_types: ["channel_folders"] })) as { channel_folders: Array<{ id: number }> };
    expect(spectator.channel_folders.map((f) => f.id)).toEqual([shown]);
    const state = await register(c.w, c.member, { fetch_event_types: '["realm"]' });
    expect(state).toMatchObject({ max_channel_folder_name_length: 60, max_channel_folder_description_length: 1024 });
  });
});
