/**
 * GET /api/v1/user_uploads/{realm_id}/{filename} (FL 1): a URL for an upload that works without
 * credentials for 60 seconds, as the mobile apps open files in the system viewer.
 */
import { memoryBlobStore } from '@teamchat/core';
import { afterEach, describe, expect, it } from 'vitest';
import { makeWorld } from '../helpers/core.js';
import { fakeClock } from '../core/fixtures.js';
import { call, closeServers, expectError, expectSuccess, startServer, type TestServer } from '../helpers/http.js';

afterEach(closeServers);

function withFile(content: string, name: string): FormData {
  const data = new FormData();
  data.append('file', new Blob([content], { type: 'text/plain' }), name);
  return data;
}

async function setup() {
  const clock = fakeClock();
  const world = await makeWorld({ clock, uploads: memoryBlobStore(), config: { timers: false } });
  const member = await world.addUser({ email: 'mel@example.com', fullName: 'Mel Member' });
  const other = await world.addUser({ email: 'otto@example.com', fullName: 'Otto Other' });
  const server = await startServer(world);
  const uploaded = expectSuccess(await call(server, 'POST', '/user_uploads', { auth: member, body: withFile('secret notes', 'notes.txt') }));
  return { server, world, member, other, clock, path: uploaded.url.slice('/user_uploads/'.length) as string };
}

const anonymously = async (server: TestServer, path: string) => {
  const response = await fetch(server.url + path);
  return { status: response.status, text: await response.text(), type: response.headers.get('content-type') };
};

describe('temporary upload URLs', () => {
  it('gives the owner a URL that serves the file without credentials, for 60 seconds', async () => {
    const { server, member, clock, path } = await setup();
    const answer = expectSuccess(await call(server, 'GET', `/user_uploads/${path}`, { auth: member }));
    expect(answer).toEqual({ result: 'success', msg: '', url: expect.stringMatching(/^\/user_uploads\/temporary\/[\w-]+\.[\w-]+\/notes\.txt$/) });
    expect(await anonymously(server, answer.url)).toEqual({ status: 200, text: 'secret notes', type: 'text/plain' });
    clock.advance(61_000);
    const expired = await anonymously(server, answer.url);
    expect([expired.status, JSON.parse(expired.text)]).toEqual([400, { result: 'error', msg: 'Invalid token', code: 'BAD_REQUEST' }]);
  });

  it('refuses forged tokens and another file name', async () => {
    const { server, member, path } = await setup();
    const { url } = expectSuccess(await call(server, 'GET', `/user_uploads/${path}`, { auth: member }));
    const [prefix, token] = [url.slice(0, url.lastIndexOf('/')), url.split('/')[3] as string];
    const forged = `/user_uploads/temporary/${token.replace(/.$/, (c: string) => (c === 'A' ? 'B' : 'A'))}/notes.txt`;
    expect(JSON.parse((await anonymously(server, forged)).text).msg).toBe('Invalid token');
    expect(JSON.parse((await anonymously(server, '/user_uploads/temporary/garbage/notes.txt')).text).msg).toBe('Invalid token');
    const renamed = await anonymously(server, `${prefix}/other.txt`);
    expect([renamed.status, JSON.parse(renamed.text).msg]).toEqual([400, 'Invalid filename']);
  });

  it('applies the file’s access rules before giving a URL', async () => {
    const { server, member, other, path } = await setup();
    expectError(await call(server, 'GET', `/user_uploads/${path}`, { auth: other }), 403, 'BAD_REQUEST', 'You are not authorized to view this file.');
    expectError(await call(server, 'GET', `/user_uploads/${path.replace(/\/[^/]+$/, '/missing.txt')}`, { auth: member }), 404, 'NOT_FOUND', 'File not found.');
    expectError(await call(server, 'GET', `/user_uploads/999${path}`, { auth: member }), 404, 'NOT_FOUND', 'File not found.');
    expectError(await call(server, 'GET', `/user_uploads/${path}`), 401, 'UNAUTHORIZED', /^Not logged in/);
  });
});
