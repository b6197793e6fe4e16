/**
 * Uploads over HTTP: a multipart file through the real server, the file served back under
 * /user_uploads with Basic credentials and access checks, GET and DELETE /attachments.
 */
import { doSendMessage, doSubscribe, memoryBlobStore } from '@teamchat/core';
import { afterEach, describe, expect, it } from 'vitest';
import { makeWorld, must } from '../helpers/core.js';
import { authOf, call, closeServers, expectError, expectSuccess, startServer, type TestServer } from '../helpers/http.js';

afterEach(closeServers);

function withFile(content: string, name: string, type = 'text/plain', field = 'file'): FormData {
  const data = new FormData();
  data.append(field, new Blob([content], { type }), name);
  return data;
}

async function setup(config: Record<string, unknown> = {}) {
  const blobs = memoryBlobStore();
  const world = await makeWorld({ uploads: blobs, config: { timers: false, ...config } });
  const member = await world.addUser({ email: 'mel@example.com', fullName: 'Mel Member' });
  const other = await world.addUser({ email: 'otto@example.com', fullName: 'Otto Other' });
  const server = await startServer(world);
  return { server, world, member, other, blobs };
}

/** GET of a path outside /api/v1, with a user's credentials or none. */
async function fetchFile(server: TestServer, path: string, user?: Parameters<typeof authOf>[0], method = 'GET') {
  const response = await fetch(server.url + path, { method, headers: user ? { authorization: authOf(user) } : {} });
  return { response, bytes: new Uint8Array(await response.arrayBuffer()) };
}

describe('uploads over HTTP', () => {
  it('uploads a multipart file, serves it to the owner with its type and name, lists and deletes it', async () => {
    const { server, member, blobs } = await setup();
    const uploaded = expectSuccess(await call(server, 'POST', '/user_uploads', { auth: member, body: withFile('zulip!', 'zulip notes.txt') }));
    expect(uploaded).toEqual({ result: 'success', msg: '', uri: uploaded.url, url: expect.stringMatching(/^\/user_uploads\/\d+\/[0-9a-f]{2}\/[\w-]{24}\/zulip-notes\.txt$/), filename: 'zulip-notes.txt' });

    const { response, bytes } = await fetchFile(server, uploaded.url, member);
    expect(response.status).toBe(200);
    expect(new TextDecoder().decode(bytes)).toBe('zulip!');
    expect(response.headers.get('content-type')).toBe('text/plain');
    expect(response.headers.get('content-disposition')).toBe(`inline; filename="zulip-notes.txt"; filename*=UTF-8''zulip-notes.txt`);
    expect(response.headers.get('cache-control')).toBe('private, max-age=86400, immutable');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    const head = (await fetchFile(server, uploaded.url, member, 'HEAD')).response;
    expect([head.status, head.headers.get('content-length')]).toEqual([200, '6']);

    const listed = expectSuccess(await call(server, 'GET', '/attachments', { auth: member }));
    expect(listed).toEqual({
      result: 'success', msg: '', upload_space_used: 6,
      attachments: [{ id: 1, name: 'zulip-notes.txt', path_id: uploaded.url.slice('/user_uploads/'.length), size: 6, create_time: expect.any(Number), message_ids: [] }],
    });
    expect(expectSuccess(await call(server, 'DELETE', '/attachments/1', { auth: member }))).toEqual({ result: 'success', msg: '' });
    expect(blobs.keys()).toEqual([]);
    expect((await fetchFile(server, uploaded.url, member)).response.status).toBe(404);
  });

  it('serves a file to readers of a message linking it; others get 403, unknown paths 404, no credentials 401', async () => {
    const { server, world, member, other } = await setup();
    const page = expectSuccess(await call(server, 'POST', '/user_uploads', { auth: member, body: withFile('<script>alert(1)</script>', 'page.html', 'text/html') }));
    expect((await fetchFile(server, page.url, other)).response.status).toBe(403);
    const denied = await fetchFile(server, page.url, other);
    expect(JSON.parse(new TextDecoder().decode(denied.bytes))).toEqual({ result: 'error', msg: 'You are not authorized to view this file.', code: 'BAD_REQUEST' });

    must(await doSendMessage(world.ctx, world.as(member), { type: 'direct', to: JSON.stringify([other.id]), content: `[page](${page.url})` }));
    const served = await fetchFile(server, page.url, other);
    expect(served.response.status).toBe(200);
    // Anything that could run script downloads instead, sandboxed.
    expect(served.response.headers.get('content-disposition')).toBe(`attachment; filename="page.html"; filename*=UTF-8''page.html`);
    expect(served.response.headers.get('content-security-policy')).toBe("default-src 'none'; sandbox");
    expect((await fetchFile(server, page.url, world.owner)).response.status).toBe(403);

    const missing = await fetchFile(server, `${page.url}.nope`, member);
    expect(missing.response.status).toBe(404);
    expect(JSON.parse(new TextDecoder().decode(missing.bytes))).toEqual({ result: 'error', msg: 'File not found.', code: 'NOT_FOUND' });
    const anonymous = await fetchFile(server, page.url);
    expect([anonymous.response.status, anonymous.response.headers.get('www-authenticate')]).toEqual([401, 'Basic realm="zulip"']);
    expect((await fetch(server.url + page.url, { headers: { authorization: 'Basic bm9ib2R5Om5vcGU=' } })).status).toBe(401);
    expect((await fetch(server.url + page.url, { method: 'POST', headers: { authorization: authOf(member) } })).status).toBe(405);
  });

  it('a channel message shares the file with the channel; deleting the message deletes the file', async () => {
    const { server, world, member, other, blobs } = await setup();
    must(await doSubscribe(world.ctx, world.as(member), { subscriptions: [{ name: 'general' }] }));
    const up = expectSuccess(await call(server, 'POST', '/user_uploads', { auth: member, body: withFile('data', 'data.csv', 'text/csv') }));
    const sent = expectSuccess(await call(server, 'POST', '/messages', { auth: member, body: new URLSearchParams({ type: 'stream', to: 'general', topic: 't', content: `[data](${up.url})` }) }));
    expect((await fetchFile(server, up.url, other)).response.status).toBe(200);
    expect(expectSuccess(await call(server, 'GET', '/attachments', { auth: member })).attachments[0].message_ids).toEqual([sent.id]);
    expectSuccess(await call(server, 'DELETE', `/messages/${sent.id}`, { auth: world.owner }));
    expect(blobs.keys()).toEqual([]);
    expect(expectSuccess(await call(server, 'GET', '/attachments', { auth: member })).attachments).toEqual([]);
  });

  it('POST /user_uploads reads bodies up to the upload limit, past the general request-body limit', async () => {
    const { server, member } = await setup({ maxFileUploadSizeMib: 1, maxRequestBodyBytes: 4096 });
    expectSuccess(await call(server, 'POST', '/user_uploads', { auth: member, body: withFile('x'.repeat(512 * 1024), 'half.txt') }));
    expectError(await call(server, 'POST', '/user_uploads', { auth: member, body: withFile('x'.repeat(2 * 1024 * 1024), 'huge.txt') }), 413, 'PAYLOAD_TOO_LARGE', /limit: 1114112 bytes/);
    expectError(await call(server, 'POST', '/typing', { auth: member, body: withFile('x'.repeat(8192), 'a.txt') }), 413, 'PAYLOAD_TOO_LARGE', /limit: 4096 bytes/);
  });

  it('errors with their codes and statuses', async () => {
    const { server, member, other } = await setup({ maxFileUploadSizeMib: 1 });
    expectError(await call(server, 'POST', '/user_uploads', { body: withFile('x', 'x.txt') }), 401, 'UNAUTHORIZED', 'Not logged in: API authentication or user session required');
    expectError(await call(server, 'POST', '/user_uploads', { auth: member, body: new URLSearchParams({ a: '1' }) }), 400, 'BAD_REQUEST', 'You must specify a file to upload');
    const two = withFile('a', 'a.txt');
    two.append('second', new Blob(['b']), 'b.txt');
    expectError(await call(server, 'POST', '/user_uploads', { auth: member, body: two }), 400, 'BAD_REQUEST', 'You may only upload one file at a time');
    // Larger than the request-body limit elsewhere would be, but within the upload limit's allowance: the reference's error.
    const big = withFile('x'.repeat(1024 * 1024 + 1), 'big.txt');
    expectError(await call(server, 'POST', '/user_uploads', { auth: member, body: big }), 400, 'BAD_REQUEST', 'Uploaded file is larger than the allowed limit of 1 MiB');
    expectError(await call(server, 'DELETE', '/attachments/1', {}), 401, 'UNAUTHORIZED', 'Not logged in: API authentication or user session required');
    expectError(await call(server, 'DELETE', '/attachments/999', { auth: member }), 400, 'BAD_REQUEST', 'Invalid attachment');
    expectError(await call(server, 'DELETE', '/attachments/abc', { auth: member }), 400, 'BAD_REQUEST', 'attachment_id is not an integer');
    expectSuccess(await call(server, 'POST', '/user_uploads', { auth: member, body: withFile('x', 'x.txt') }));
    expectError(await call(server, 'DELETE', '/attachments/1', { auth: other }), 400, 'BAD_REQUEST', 'Invalid attachment');
    expectError(await call(server, 'GET', '/attachments', {}), 401, 'UNAUTHORIZED', 'Not logged in: API authentication or user session required');
  });
});
