/**
 * Avatars over HTTP: POST and DELETE /users/me/avatar with a multipart image, the event on a
 * long-poll, the images served under /user_avatars with caching headers, and /avatar/{…}.
 */
import { doUpdateRealm, memoryBlobStore } from '@teamchat/core';
import { afterEach, describe, expect, it } from 'vitest';
import { pngSize, png } from '../core/image-fixtures.js';
import { makeWorld, must } from '../helpers/core.js';
import { authOf, call, closeServers, expectError, expectSuccess, form, startServer, type TestServer } from '../helpers/http.js';

afterEach(closeServers);

function withImage(bytes: Uint8Array, name = 'me.png', type = 'image/png', field = 'file'): FormData {
  const data = new FormData();
  data.append(field, new Blob([bytes as BlobPart], { type }), name);
  return data;
}

async function setup(config: Record<string, unknown> = {}) {
  const world = await makeWorld({ uploads: memoryBlobStore(), config: { timers: false, ...config } });
  const member = await world.addUser({ email: 'mel@example.com', fullName: 'Mel Member' });
  const other = await world.addUser({ email: 'otto@example.com', fullName: 'Otto Other' });
  const server = await startServer(world);
  return { server, world, member, other };
}

/** A request outside /api/v1, with a user's credentials or none; redirects are not followed. */
async function fetchRaw(server: TestServer, path: string, user?: Parameters<typeof authOf>[0], method = 'GET') {
  const response = await fetch(server.url + path, { method, redirect: 'manual', headers: user ? { authorization: authOf(user) } : {} });
  return { response, bytes: new Uint8Array(await response.arrayBuffer()) };
}

const pathOf = (url: string) => new URL(url).pathname;

describe('avatars over HTTP', () => {
  it('uploads an avatar, announces it on a long-poll, and serves both sizes with caching headers', async () => {
    const { server, member, other } = await setup();
    const queue = expectSuccess(await call(server, 'POST', '/register', { auth: other, body: form({ event_types: '["realm_user"]' }) }));
    const uploaded = expectSuccess(await call(server, 'POST', '/users/me/avatar', { auth: member, body: withImage(png(64, 48)) }));
    expect(Object.keys(uploaded).sort()).toEqual(['avatar_url', 'msg', 'result']);
    expect(uploaded.avatar_url).toMatch(/^http:\/\/chat\.example\.com\/user_avatars\/1\/[0-9a-f]{32}\.png\?version=2$/);

    const polled = expectSuccess(await call(server, 'GET', '/events', { auth: other, query: { queue_id: queue.queue_id, last_event_id: '-1' } }));
    expect(polled.events).toEqual([
      {
        id: 0,
        type: 'realm_user',
        op: 'update',
        person: { user_id: member.id, avatar_source: 'U', avatar_url: uploaded.avatar_url, avatar_url_medium: uploaded.avatar_url.replace('.png?', '-medium.png?'), avatar_version: 2 },
      },
    ]);

    const small = await fetchRaw(server, pathOf(uploaded.avatar_url), other);
    expect(small.response.status).toBe(200);
    expect(small.response.headers.get('content-type')).toBe('image/png');
    expect(small.response.headers.get('cache-control')).toBe('private, max-age=31536000, immutable');
    expect(small.response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(pngSize(small.bytes)).toEqual([100, 100]);
    const medium = await fetchRaw(server, pathOf(uploaded.avatar_url).replace('.png', '-medium.png'), other);
    expect(pngSize(medium.bytes)).toEqual([500, 500]);
    const head = await fetchRaw(server, pathOf(uploaded.avatar_url), other, 'HEAD');
    expect(head.response.status).toBe(200);
    expect(head.bytes.byteLength).toBe(0);

    const anonymous = await fetchRaw(server, pathOf(uploaded.avatar_url));
    expect(anonymous.response.status).toBe(401);
    expect((await fetchRaw(server, pathOf(uploaded.avatar_url), other, 'POST')).response.status).toBe(405);
    expect((await fetchRaw(server, '/user_avatars/1/nothing.png', other)).response.status).toBe(404);
  });

  it('deletes the avatar (idempotently) and stops serving the old images', async () => {
    const { server, member } = await setup();
    const uploaded = expectSuccess(await call(server, 'POST', '/users/me/avatar', { auth: member, body: withImage(png(8, 8)) }));
    const deleted = expectSuccess(await call(server, 'DELETE', '/users/me/avatar', { auth: member }));
    expect(deleted.avatar_url).toMatch(/^https:\/\/secure\.gravatar\.com\/avatar\/[0-9a-f]{32}\?d=identicon&version=3$/);
    expect(expectSuccess(await call(server, 'DELETE', '/users/me/avatar', { auth: member }))).toEqual(deleted);
    expect((await fetchRaw(server, pathOf(uploaded.avatar_url), member)).response.status).toBe(404);
    const me = expectSuccess(await call(server, 'GET', '/users/me', { auth: member }));
    expect(me).toMatchObject({ avatar_url: deleted.avatar_url, avatar_version: 3 });
  });

  it('answers bad uploads with 4xx envelopes and leaves the avatar alone', async () => {
    const { server, member, world } = await setup({ maxAvatarFileSizeMib: 1, maxRequestBodyBytes: 4096 });
    const post = (body: BodyInit, auth: Parameters<typeof authOf>[0] | string = member) => call(server, 'POST', '/users/me/avatar', { auth, body });
    expectError(await post(form({})), 400, 'BAD_REQUEST', 'You must upload exactly one avatar.');
    const two = withImage(png(4, 4));
    two.append('second', new Blob([png(4, 4) as BlobPart], { type: 'image/png' }), 'b.png');
    expectError(await post(two), 400, 'BAD_REQUEST', 'You must upload exactly one avatar.');
    expectError(await post(withImage(new TextEncoder().encode('<html>hi</html>'), 'page.png')), 400, 'BAD_REQUEST', 'Invalid image format');
    expectError(await post(withImage(png(4, 4).slice(0, 40))), 400, 'BAD_REQUEST', 'Could not decode image; did you upload an image file?');
    // Bodies as large as the avatar limit are read (past the general 4096 bytes); the core refuses the file.
    const justOver = new Uint8Array(1024 * 1024 + 10);
    justOver.set(png(1, 1));
    expectError(await post(withImage(justOver)), 400, 'BAD_REQUEST', 'Uploaded file is larger than the allowed limit of 1 MiB');
    // Far past it, the body is not read at all.
    expectError(await post(withImage(new Uint8Array(3 * 1024 * 1024))), 413, 'PAYLOAD_TOO_LARGE', /limit: 1114112 bytes/);
    expectError(await post(withImage(png(4, 4)), 'Basic bm9ib2R5Om5vcGU='), 401, 'UNAUTHORIZED', 'Malformed API key');
    const patch = await call(server, 'PATCH', '/users/me/avatar', { auth: member });
    expect(patch.status).toBe(405);
    expect(patch.body.allowed_methods).toEqual(['DELETE', 'POST']);
    const me = await world.ctx.storage.read((tx) => tx.users.byId(world.realm.id, member.id));
    expect(me).toMatchObject({ avatarSource: 'G', avatarVersion: 1 });
  });

  it('refuses members when avatar changes are disabled in the realm, over HTTP too', async () => {
    const { server, world, member } = await setup();
    must(await doUpdateRealm(world.ctx, world.as(world.owner), { avatar_changes_disabled: true }));
    expectError(await call(server, 'POST', '/users/me/avatar', { auth: member, body: withImage(png(4, 4)) }), 400, 'BAD_REQUEST', 'Avatar changes are disabled in this organization.');
    expectSuccess(await call(server, 'POST', '/users/me/avatar', { auth: world.owner, body: withImage(png(4, 4)) }));
  });

  it('redirects /avatar/{user_id_or_email} and /medium to the current URL, passing the query on', async () => {
    const { server, member, other } = await setup();
    const uploaded = expectSuccess(await call(server, 'POST', '/users/me/avatar', { auth: member, body: withImage(png(8, 8)) }));
    const byId = await fetchRaw(server, `/avatar/${member.id}`, other);
    expect(byId.response.status).toBe(302);
    expect(byId.response.headers.get('location')).toBe(uploaded.avatar_url);
    expect((await fetchRaw(server, '/avatar/mel@example.com?s=50', other)).response.headers.get('location')).toBe(`${uploaded.avatar_url}&s=50`);
    expect((await fetchRaw(server, `/avatar/${member.id}/medium`, other)).response.headers.get('location')).toBe(uploaded.avatar_url.replace('.png?', '-medium.png?'));
    expect((await fetchRaw(server, `/avatar/${member.id}`)).response.status).toBe(401);
    expect((await fetchRaw(server, `/avatar/${member.id}`, other, 'DELETE')).response.status).toBe(405);
    expect((await fetchRaw(server, '/avatar/%ZZ', other)).response.status).toBe(400);
  });

  it('serves spectators of a realm with spectator access, without credentials', async () => {
    const { server, world, member } = await setup();
    const uploaded = expectSuccess(await call(server, 'POST', '/users/me/avatar', { auth: member, body: withImage(png(8, 8)) }));
    must(await doUpdateRealm(world.ctx, world.as(world.owner), { enable_spectator_access: true }));
    expect((await fetchRaw(server, pathOf(uploaded.avatar_url))).response.status).toBe(200);
    const redirect = await fetchRaw(server, `/avatar/${member.id}`);
    expect(redirect.response.status).toBe(302);
    expect(redirect.response.headers.get('location')).toBe(uploaded.avatar_url);
    expect((await fetchRaw(server, '/avatar/mel@example.com')).response.status).toBe(401);
  });
});
