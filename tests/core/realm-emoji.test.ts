/** Custom emoji in the core: upload, list, register, events, deactivation, images, rendering. */
import { doAddRealmEmoji, doDeactivateRealmEmoji, doUpdateMessage, getMessage, getRealmEmoji, getRealmEmojiImage, MAX_EMOJI_FILE_SIZE_MIB } from '@teamchat/core/internal';
import { beforeEach, describe, expect, it } from 'vitest';
import { must } from '../helpers/core.js';
import { eventsOfType } from '../helpers/events.js';
import { type ChannelWorld, channelWorld, ids, queued, recipientsOf, register, subscribe } from './channel-helpers.js';
import { expectBadRequest, expectError, secondRealm } from './fixtures.js';
import { addEmoji, GIF, JPEG, PNG, send, upload, WEBP } from './reaction-helpers.js';

let c: ChannelWorld;
beforeEach(async () => {
  c = await channelWorld();
});

const list = async (user = c.member) => (must(await getRealmEmoji(c.w.ctx, c.w.as(user), {}))).emoji;
const addAs = (user: ChannelWorld['member'], name: string, extra: Record<string, unknown> = { file: upload(PNG) }) =>
  doAddRealmEmoji(c.w.ctx, c.w.as(user), { emoji_name: name, ...extra });
const image = (file: string, realmId = c.w.realm.id, realm = c.w.realm) =>
  getRealmEmojiImage(c.w.ctx, { realm, user: null }, { realm_id: realmId, file });

describe('uploading and listing', () => {
  it('a member uploads; GET /realm/emoji and register show it; the image is served under its source_url', async () => {
    expect(must(await addAs(c.member, 'green_tick'))).toEqual({});
    const emoji = { id: '1', name: 'green_tick', source_url: `/user_avatars/${c.w.realm.id}/emoji/images/1.png`, still_url: null, deactivated: false, author_id: c.member.id };
    expect(await list(c.guest)).toEqual({ 1: emoji });
    expect((await register(c.w, c.guest, { fetch_event_types: '["realm_emoji"]' })).realm_emoji).toEqual({ 1: emoji });
    const served = must(await image('1.png'));
    expect(served.contentType).toBe('image/png');
    expect([...served.bytes]).toEqual([...PNG]);
  });

  it('recognises PNG, GIF, JPEG and WebP by their bytes, whatever the client claimed; spaces become underscores', async () => {
    must(await addAs(c.member, ' party time ', { file: upload(GIF, 'x.png', 'image/png') }));
    must(await addAs(c.member, 'photo', { whatever_field: upload(JPEG, 'photo.jpg', 'application/octet-stream') }));
    must(await addAs(c.member, 'modern', { file: upload(WEBP) }));
    const urls = Object.values(await list()).map((e) => [(e as { name: string }).name, (e as { source_url: string }).source_url]);
    const base = `/user_avatars/${c.w.realm.id}/emoji/images`;
    expect(urls).toEqual([['party_time', `${base}/1.gif`], ['photo', `${base}/2.jpg`], ['modern', `${base}/3.webp`]]);
    expect(must(await image('3.webp')).contentType).toBe('image/webp');
  });

  it('an administrator may take a unicode emoji name; the custom emoji then wins for reactions and Markdown', async () => {
    expectBadRequest(await addAs(c.member, 'octopus'), 'Only administrators can override default emoji.');
    must(await addAs(c.admin, 'octopus'));
    await subscribe(c.w, c.w.owner, ['general']);
    const id = await send(c.w, c.w.owner, 'general', ':octopus: :green_tick: :tada:');
    const { message } = must(await getMessage(c.w.ctx, c.w.as(c.w.owner), { message_id: id })) as { message: { content: string } };
    expect(message.content).toBe(
      `<p><img alt=":octopus:" class="emoji" src="/user_avatars/${c.w.realm.id}/emoji/images/1.png" title="octopus"> :green_tick: ` +
        '<span aria-label="tada" class="emoji emoji-1f389" role="img" title="tada">:tada:</span></p>',
    );
  });

  it('an edited message renders custom emoji like a sent one', async () => {
    must(await addAs(c.member, 'green_tick'));
    await subscribe(c.w, c.w.owner, ['general']);
    const id = await send(c.w, c.w.owner, 'general', 'plain');
    must(await doUpdateMessage(c.w.ctx, c.w.as(c.w.owner), { message_id: id, content: 'done :green_tick:' }));
    const { message } = must(await getMessage(c.w.ctx, c.w.as(c.w.owner), { message_id: id })) as { message: { content: string } };
    expect(message.content).toBe(`<p>done <img alt=":green_tick:" class="emoji" src="/user_avatars/${c.w.realm.id}/emoji/images/1.png" title="green tick"></p>`);
  });
});

describe('upload errors change and publish nothing', () => {
  it('permission, duplicate names, file count, size, format and names', async () => {
    must(await addAs(c.member, 'taken'));
    c.drain();
    expectBadRequest(await addAs(c.guest, 'mine'), 'Insufficient permission');
    expectBadRequest(await addAs(c.admin, 'taken'), 'A custom emoji with this name already exists.');
    expectBadRequest(await addAs(c.member, 'nofile', {}), 'You must upload exactly one file.');
    expectBadRequest(await addAs(c.member, 'twofiles', { a: upload(PNG), b: upload(PNG) }), 'You must upload exactly one file.');
    expectBadRequest(await addAs(c.member, 'text', { file: upload(new TextEncoder().encode('<svg onload=alert(1)>'), 'x.png') }), 'Invalid image format');
    const big = new Uint8Array(MAX_EMOJI_FILE_SIZE_MIB * 1024 * 1024 + 1);
    big.set(PNG);
    expectBadRequest(await addAs(c.member, 'huge', { file: upload(big) }), 'Uploaded file is larger than the allowed limit of 5 MiB');
    expectBadRequest(await addAs(c.member, ''), 'Emoji name is missing');
    expectBadRequest(await addAs(c.member, 'Capital'), 'Emoji names must contain only lowercase English letters, digits, spaces, dashes, and underscores.');
    expectBadRequest(await addAs(c.member, 'ends_'), 'Emoji names must end with either a letter or digit.');
    expectBadRequest(await addAs(c.member, 'a file', { emoji_name: 'x', file: 'not a file' }), 'You must upload exactly one file.');
    expectError(await doAddRealmEmoji.fromTransport(c.w.ctx, { realm: c.w.realm, user: null }, { emoji_name: 'anon', file: upload(PNG) }), 'UNAUTHORIZED', 'Not logged in: API authentication or user session required', 401);
    expect(Object.keys(await list())).toEqual(['1']);
    expect(c.drain()).toEqual([]);
  });
});

describe('events', () => {
  it('op update with every emoji, or add / update_one for individual_emoji_changes; to every active user', async () => {
    const legacy = await register(c.w, c.member, { event_types: '["realm_emoji"]' });
    const modern = await register(c.w, c.member, { event_types: '["realm_emoji"]', client_capabilities: '{"individual_emoji_changes":true}' });
    const id = await addEmoji(c.w, c.member, 'green_tick');
    must(await doDeactivateRealmEmoji(c.w.ctx, c.w.as(c.member), { emoji_name: 'green_tick' }));
    const emoji = { id: String(id), name: 'green_tick', source_url: `/user_avatars/${c.w.realm.id}/emoji/images/${id}.png`, still_url: null, author_id: c.member.id };
    expect(await queued(c.w, c.member, legacy.queue_id)).toEqual([
      { id: 0, type: 'realm_emoji', op: 'update', realm_emoji: { [id]: { ...emoji, deactivated: false } } },
      { id: 1, type: 'realm_emoji', op: 'update', realm_emoji: { [id]: { ...emoji, deactivated: true } } },
    ]);
    expect(await queued(c.w, c.member, modern.queue_id)).toEqual([
      { id: 0, type: 'realm_emoji', op: 'add', emoji: { ...emoji, deactivated: false } },
      { id: 1, type: 'realm_emoji', op: 'update_one', emoji_id: String(id), data: { deactivated: true } },
    ]);
    const everyone = ids(c.w.owner, c.admin, c.moderator, c.member, c.other, c.guest, c.bot);
    expect(recipientsOf(c.drain(), 'realm_emoji')).toEqual([everyone, everyone]);
  });
});

describe('verify_action', () => {
  it('the events applied to a registered realm_emoji give what a fresh register shows, in both event forms', async () => {
    for (const capabilities of ['{}', '{"individual_emoji_changes":true}']) {
      const before = await register(c.w, c.other, { fetch_event_types: '["realm_emoji"]', client_capabilities: capabilities });
      const state: Record<string, object> = structuredClone(before.realm_emoji);
      const name = `e${capabilities.length}`;
      await addEmoji(c.w, c.member, name);
      await addEmoji(c.w, c.member, `${name}x`);
      must(await doDeactivateRealmEmoji(c.w.ctx, c.w.as(c.admin), { emoji_name: name }));
      let applied = state;
      for (const event of eventsOfType(await queued(c.w, c.other, before.queue_id), 'realm_emoji')) {
        if (event.op === 'update') applied = structuredClone(event.realm_emoji);
        else if (event.op === 'add') applied[event.emoji.id] = event.emoji;
        else if (event.op === 'update_one') Object.assign(applied[event.emoji_id]!, event.data);
      }
      expect(applied).toEqual((await register(c.w, c.other, { fetch_event_types: '["realm_emoji"]' })).realm_emoji);
    }
  });
});

describe('deactivating', () => {
  it('the author or an administrator; the name is free again, the old image still served, old reactions kept', async () => {
    await addEmoji(c.w, c.member, 'mine');
    await addEmoji(c.w, c.other, 'theirs');
    c.drain();
    expectBadRequest(await doDeactivateRealmEmoji(c.w.ctx, c.w.as(c.moderator), { emoji_name: 'mine' }), 'Must be an organization administrator or emoji author');
    expect(c.drain()).toEqual([]);
    must(await doDeactivateRealmEmoji(c.w.ctx, c.w.as(c.member), { emoji_name: 'mine' }));
    must(await doDeactivateRealmEmoji(c.w.ctx, c.w.as(c.admin), { emoji_name: 'theirs' }));
    expect(Object.values(await list()).map((e) => (e as { deactivated: boolean }).deactivated)).toEqual([true, true]);
    expect(must(await image('1.png')).contentType).toBe('image/png');
    must(await addAs(c.other, 'mine'));
    expect(Object.keys(await list())).toEqual(['1', '2', '3']);
  });

  it('unknown or already deactivated names are 404; guests and spectators', async () => {
    await addEmoji(c.w, c.member, 'gone');
    must(await doDeactivateRealmEmoji(c.w.ctx, c.w.as(c.member), { emoji_name: 'gone' }));
    c.drain();
    expectError(await doDeactivateRealmEmoji(c.w.ctx, c.w.as(c.member), { emoji_name: 'gone' }), 'BAD_REQUEST', "Emoji 'gone' does not exist", 404);
    expectError(await doDeactivateRealmEmoji(c.w.ctx, c.w.as(c.admin), { emoji_name: 'never' }), 'BAD_REQUEST', "Emoji 'never' does not exist", 404);
    expectError(await doDeactivateRealmEmoji(c.w.ctx, { realm: c.w.realm, user: null }, { emoji_name: 'gone' }), 'UNAUTHORIZED', 'Not logged in: API authentication or user session required', 401);
    expectError(await getRealmEmoji(c.w.ctx, { realm: c.w.realm, user: null }, {}), 'UNAUTHORIZED', 'Not logged in: API authentication or user session required', 401);
    expect(c.drain()).toEqual([]);
  });
});

describe('realms are separate', () => {
  it('another realm lists none of these emoji, cannot deactivate them, and its host serves none of their images', async () => {
    await addEmoji(c.w, c.member, 'ours');
    const other = await secondRealm(c.w.ctx);
    expect((must(await getRealmEmoji(c.w.ctx, { realm: other.realm, user: other.owner }, {}))).emoji).toEqual({});
    expectError(await doDeactivateRealmEmoji(c.w.ctx, { realm: other.realm, user: other.owner }, { emoji_name: 'ours' }), 'BAD_REQUEST', "Emoji 'ours' does not exist", 404);
    expectError(await image('1.png', c.w.realm.id, other.realm), 'NOT_FOUND', 'Not found', 404);
    expectError(await image('1.png', other.realm.id, other.realm), 'NOT_FOUND', 'Not found', 404);
    // Only the exact file name given out is served.
    for (const file of ['1.gif', '1', '2.png', '1.png.exe', '../1.png']) expectError(await image(file), 'NOT_FOUND', 'Not found', 404);
    expect(must(await image('1.png')).contentType).toBe('image/png');
  });
});
