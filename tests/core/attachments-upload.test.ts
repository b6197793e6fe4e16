/** POST /user_uploads, GET /attachments and downloading in the core: shapes, events, limits, access. */
import { doDeactivateUser, doUploadFile, getAttachments, getUploadedFile, memoryBlobStore } from '@teamchat/core';
import { beforeEach, describe, expect, it } from 'vitest';
import { must } from '../helpers/core.js';
import { type ChannelWorld, channelWorld, recipientsOf, register } from './channel-helpers.js';
import { attachmentsOf, download, file, text, uploadAs } from './attachment-helpers.js';
import { expectBadRequest, expectError, secondRealm, T0 } from './fixtures.js';

let c: ChannelWorld;
let blobs: ReturnType<typeof memoryBlobStore>;
beforeEach(async () => {
  blobs = memoryBlobStore();
  c = await channelWorld({ uploads: blobs });
});

describe('POST /user_uploads', () => {
  it('stores the file under /user_uploads/{realm_id}/{2 hex}/{24 random}/{name}; uri, url and filename (SHAPES.md 6.17)', async () => {
    const up = await uploadAs(c.w, c.member, file('zulip.txt', 'zulip!'));
    expect(up.url).toMatch(new RegExp(`^/user_uploads/${c.w.realm.id}/[0-9a-f]{2}/[A-Za-z0-9_-]{24}/zulip\\.txt$`));
    expect(up.uri).toBe(up.url);
    expect(up.filename).toBe('zulip.txt');
    expect(blobs.keys()).toEqual([up.pathId]);
    expect(await blobs.get(up.pathId)).toEqual(text('zulip!'));
  });

  it('sends attachment/add with the record and realm-wide upload_space_used to the uploader only', async () => {
    await uploadAs(c.w, c.admin, file('first.txt', '123'));
    c.drain();
    const up = await uploadAs(c.w, c.member, file('zulip.txt', 'zulip!'));
    const published = c.drain();
    expect(recipientsOf(published, 'attachment')).toEqual([[c.member.id]]);
    expect(published[0]!.event).toEqual({
      type: 'attachment', op: 'add',
      attachment: { id: 2, name: 'zulip.txt', path_id: up.pathId, size: 6, create_time: Math.floor(T0 / 1000), message_ids: [] },
      upload_space_used: 9,
    });
  });

  it('sanitizes the file name as the reference does', async () => {
    expect((await uploadAs(c.w, c.member, file('my  report (final)!.pdf'))).filename).toBe('my-report-final.pdf');
    expect((await uploadAs(c.w, c.member, file('ünïcødé 名前.txt'))).filename).toBe('ünïcødé-名前.txt');
    expect((await uploadAs(c.w, c.member, file('../../etc/passwd'))).filename).toBe('....etcpasswd');
    expect((await uploadAs(c.w, c.member, file('???'))).filename).toBe('uploaded-file');
    expect((await uploadAs(c.w, c.member, file(''))).filename).toBe('uploaded-file');
    const long = await uploadAs(c.w, c.member, file(`${'a'.repeat(300)}.txt`));
    expect(long.filename).toBe(`${'a'.repeat(196)}.txt`);
  });

  it('needs exactly one file, no larger than max_file_upload_size_mib (register shows the configured limit)', async () => {
    const small = await channelWorld({ config: { maxFileUploadSizeMib: 1 }, uploads: blobs });
    expect((await register(small.w, small.member, { fetch_event_types: '["realm"]' })).max_file_upload_size_mib).toBe(1);
    expect((await register(c.w, c.member, { fetch_event_types: '["realm"]' })).max_file_upload_size_mib).toBe(100);
    const upload = (input: Record<string, unknown>) => doUploadFile(small.w.ctx, small.w.as(small.member), input);
    expectBadRequest(await upload({}), 'You must specify a file to upload');
    expectBadRequest(await upload({ file: 'not a file' }), 'You must specify a file to upload');
    expectBadRequest(await upload({ a: file('a.txt'), b: file('b.txt') }), 'You may only upload one file at a time');
    const big = { filename: 'big.bin', contentType: 'application/octet-stream', bytes: new Uint8Array(1024 * 1024 + 1) };
    expectBadRequest(await upload({ file: big }), 'Uploaded file is larger than the allowed limit of 1 MiB');
    must(await upload({ file: { ...big, bytes: new Uint8Array(1024 * 1024) } }));
    expect(recipientsOf(small.drain(), 'attachment')).toEqual([[small.member.id]]);
  });

  it('refuses callers without a login and deactivated users, leaving no row, blob or event', async () => {
    expectError(await doUploadFile(c.w.ctx, c.w.as(null), { file: file('a.txt') }), 'UNAUTHORIZED', 'Not logged in: API authentication or user session required', 401);
    const stale = c.w.as(c.member);
    must(await doDeactivateUser(c.w.ctx, c.w.as(c.w.owner), { user_id: c.member.id }));
    c.drain();
    expectError(await doUploadFile(c.w.ctx, stale, { file: file('a.txt') }), 'UNAUTHORIZED', 'Account is deactivated', 401);
    expect(blobs.keys()).toEqual([]);
    expect(c.drain()).toEqual([]);
    expect(await c.w.ctx.storage.read((tx) => tx.attachments.listByOwner(c.w.realm.id, c.member.id))).toEqual([]);
  });
});

describe('GET /attachments', () => {
  it("lists the caller's uploads only, with realm-wide upload_space_used; register has no attachment section", async () => {
    const a = await uploadAs(c.w, c.member, file('a.txt', '12345'));
    await uploadAs(c.w, c.other, file('b.txt', '123'));
    const second = await uploadAs(c.w, c.member, file('c.txt', '1'));
    const created = Math.floor(T0 / 1000);
    expect(await attachmentsOf(c.w, c.member)).toEqual({
      attachments: [
        { id: 1, name: 'a.txt', path_id: a.pathId, size: 5, create_time: created, message_ids: [] },
        { id: 3, name: 'c.txt', path_id: second.pathId, size: 1, create_time: created, message_ids: [] },
      ],
      upload_space_used: 9,
    });
    expect((await attachmentsOf(c.w, c.guest)).attachments).toEqual([]);
    const snapshot = await register(c.w, c.member, {});
    expect(Object.keys(snapshot).filter((k) => k.includes('attachment') || k === 'upload_space_used')).toEqual([]);
  });

  it('another realm sees none of these and its own space only', async () => {
    await uploadAs(c.w, c.member, file('a.txt', '12345'));
    const { realm, owner } = await secondRealm(c.w.ctx);
    expect(must(await getAttachments(c.w.ctx, { realm, user: owner }, {}))).toEqual({ attachments: [], upload_space_used: 0 });
  });
});

describe('downloading', () => {
  it('the owner gets the bytes, the stored type, the name and whether it may show inline', async () => {
    const up = await uploadAs(c.w, c.member, file('photo.png', 'PNGDATA', 'image/png'));
    expect(must(await download(c.w, c.member, up.pathId))).toEqual({
      contentType: 'image/png', bytes: text('PNGDATA'), upload: { fileName: 'photo.png', inline: true },
    });
    const page = await uploadAs(c.w, c.member, file('page.html', '<script>', ''));
    expect(must(await download(c.w, c.member, page.pathId)).upload).toEqual({ fileName: 'page.html', inline: false });
    expect(must(await download(c.w, c.member, page.pathId)).contentType).toBe('text/html');
    const blob = await uploadAs(c.w, c.member, file('data', 'x', 'application/octet-stream'));
    expect(must(await download(c.w, c.member, blob.pathId)).contentType).toBe('application/octet-stream');
  });

  it('an upload no message links is the owner\'s alone: others get 403, unknown paths and other realms 404', async () => {
    const up = await uploadAs(c.w, c.member, file('a.txt'));
    for (const user of [c.w.owner, c.admin, c.other, c.guest]) {
      expectError(await download(c.w, user, up.pathId), 'BAD_REQUEST', 'You are not authorized to view this file.', 403);
    }
    expectError(await download(c.w, null, up.pathId), 'UNAUTHORIZED', 'Not logged in: API authentication or user session required', 401);
    expectError(await download(c.w, c.member, `${up.pathId}x`), 'NOT_FOUND', 'File not found.', 404);
    const wrongRealm = `${c.w.realm.id + 1}/${up.pathId.split('/').slice(1).join('/')}`;
    expectError(await download(c.w, c.member, wrongRealm), 'NOT_FOUND', 'File not found.', 404);
    expectError(await download(c.w, c.member, `abc/${up.pathId}`), 'NOT_FOUND', 'File not found.', 404);
    const { realm, owner } = await secondRealm(c.w.ctx);
    const result = await getUploadedFile(c.w.ctx, { realm, user: owner }, {
      realm_id: String(c.w.realm.id), filename: up.pathId.split('/').slice(1).join('/'),
    });
    expectError(result, 'NOT_FOUND', 'File not found.', 404);
  });
});
