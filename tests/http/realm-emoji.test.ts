/**
 * Custom emoji over HTTP: a multipart upload through the real server, the list, the image fetched
 * back from its source_url (outside /api/v1, no credentials), deactivation, errors.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { makeWorld } from '../helpers/core.js';
import { call, closeServers, expectError, expectSuccess, form, startServer } from '../helpers/http.js';

afterEach(closeServers);

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44, 0x52]);

/** A multipart body with one file part under `field`, plus form fields. */
function withFile(bytes: Uint8Array, field = 'file', fields: Record<string, string> = {}): FormData {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) data.append(name, value);
  data.append(field, new Blob([bytes as Uint8Array<ArrayBuffer>], { type: 'image/png' }), 'tick.png');
  return data;
}

async function setup() {
  const world = await makeWorld();
  const member = await world.addUser({ email: 'mel@example.com', fullName: 'Mel Member' });
  const guest = await world.addUser({ email: 'gus@example.com', fullName: 'Gus Guest', role: 600 });
  const server = await startServer(world);
  return { server, world, member, guest };
}

describe('custom emoji over HTTP', () => {
  it('uploads with multipart, lists it, serves the image back, deactivates it', async () => {
    const { server, world, member } = await setup();
    const queue = expectSuccess(
      await call(server, 'POST', '/register', { auth: world.owner, body: form({ event_types: '["realm_emoji"]', client_capabilities: '{"individual_emoji_changes":true}' }) }),
    ).queue_id;
    // The file part's field name is free (the Python client names it after the file); it is never an ignored parameter.
    const uploaded = expectSuccess(await call(server, 'POST', '/realm/emoji/green_tick', { auth: member, body: withFile(PNG, '/home/mel/tick.png', { extra: '1' }) }));
    expect(uploaded).toEqual({ result: 'success', msg: '', ignored_parameters_unsupported: ['extra'] });

    const { emoji } = expectSuccess(await call(server, 'GET', '/realm/emoji', { auth: member }));
    const sourceUrl = `/user_avatars/${world.realm.id}/emoji/images/1.png`;
    expect(emoji).toEqual({ 1: { id: '1', name: 'green_tick', source_url: sourceUrl, still_url: null, deactivated: false, author_id: member.id } });

    const image = await fetch(server.url + sourceUrl);
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/png');
    expect(image.headers.get('x-content-type-options')).toBe('nosniff');
    expect(new Uint8Array(await image.arrayBuffer())).toEqual(PNG);
    const head = await fetch(server.url + sourceUrl, { method: 'HEAD' });
    expect([head.status, head.headers.get('content-length')]).toEqual([200, String(PNG.length)]);

    expectSuccess(await call(server, 'DELETE', '/realm/emoji/green_tick', { auth: member }));
    const events = expectSuccess(await call(server, 'GET', '/events', { auth: world.owner, query: { queue_id: queue, dont_block: 'true' } })).events;
    expect(events.map((e: { op: string }) => e.op)).toEqual(['add', 'update_one']);
    // Deactivated emoji keep their image: old messages still show it.
    expect((await fetch(server.url + sourceUrl)).status).toBe(200);
  });

  it('errors with their codes and statuses', async () => {
    const { server, world, member, guest } = await setup();
    expectSuccess(await call(server, 'POST', '/realm/emoji/taken', { auth: member, body: withFile(PNG) }));
    expectError(await call(server, 'POST', '/realm/emoji/taken', { auth: member, body: withFile(PNG) }), 400, 'BAD_REQUEST', 'A custom emoji with this name already exists.');
    expectError(await call(server, 'POST', '/realm/emoji/mine', { auth: guest, body: withFile(PNG) }), 400, 'BAD_REQUEST', 'Insufficient permission');
    expectError(await call(server, 'POST', '/realm/emoji/nofile', { auth: member, body: form({ file: 'text' }) }), 400, 'BAD_REQUEST', 'You must upload exactly one file.');
    expectError(await call(server, 'POST', '/realm/emoji/notimage', { auth: member, body: withFile(new TextEncoder().encode('<html>')) }), 400, 'BAD_REQUEST', 'Invalid image format');
    const big = new Uint8Array(5 * 1024 * 1024 + 1);
    big.set(PNG);
    expectError(await call(server, 'POST', '/realm/emoji/huge', { auth: member, body: withFile(big) }), 400, 'BAD_REQUEST', 'Uploaded file is larger than the allowed limit of 5 MiB');
    expectError(await call(server, 'POST', '/realm/emoji/Bad%20Name', { auth: member, body: withFile(PNG) }), 400, 'BAD_REQUEST', 'Emoji names must contain only lowercase English letters, digits, spaces, dashes, and underscores.');
    expectError(await call(server, 'POST', '/realm/emoji/x', { body: withFile(PNG) }), 401, 'UNAUTHORIZED', 'Not logged in: API authentication or user session required');
    expectError(await call(server, 'DELETE', '/realm/emoji/nope', { auth: member }), 404, 'BAD_REQUEST', "Emoji 'nope' does not exist");
    expectError(await call(server, 'DELETE', '/realm/emoji/taken', { auth: guest }), 400, 'BAD_REQUEST', 'Must be an organization administrator or emoji author');
    expectError(await call(server, 'GET', '/realm/emoji', {}), 401, 'UNAUTHORIZED', 'Not logged in: API authentication or user session required');

    const missing = await fetch(`${server.url}/user_avatars/${world.realm.id}/emoji/images/9.png`);
    expect([missing.status, (await missing.json()).code]).toEqual([404, 'NOT_FOUND']);
    const posted = await fetch(`${server.url}/user_avatars/${world.realm.id}/emoji/images/1.png`, { method: 'POST' });
    expect(posted.status).toBe(405);
    const elsewhere = await fetch(`${server.url}/user_avatars/${world.realm.id + 1}/emoji/images/1.png`);
    expect(elsewhere.status).toBe(404);
  });
});
