/**
 * Form bodies served by node:http are read from node's message itself (http-adapter
 * node-body.ts), not through a web stream: a body arriving in pieces is read whole, and one
 * whose client leaves before its end is never acted on, however complete its first part looks.
 * (Limits and deadlines on this path are covered by transport.test.ts and hostile-clients.test.ts.)
 */
import { afterEach, describe, expect, it } from 'vitest';
import { authOf, call, closeServers, expectSuccess, form, startServer } from '../helpers/http.js';
import { openRaw, parseRawResponse, pause } from '../helpers/raw-socket.js';

afterEach(closeServers);

async function serverWithChannel() {
  const server = await startServer();
  const { owner } = server.world;
  const body = form({ subscriptions: JSON.stringify([{ name: 'general' }]) });
  expectSuccess(await call(server, 'POST', '/users/me/subscriptions', { auth: owner, body }));
  return { server, owner };
}

const contents = async (server: Awaited<ReturnType<typeof serverWithChannel>>['server']) =>
  (
    expectSuccess(
      await call(server, 'GET', '/messages', { auth: server.world.owner, query: { anchor: 'newest', num_before: '20', num_after: '0', apply_markdown: 'false' } }),
    ).messages as { content: string }[]
  ).map((m) => m.content);

describe('form bodies read from node:http', () => {
  it('a body that arrives in pieces is read whole', async () => {
    const { server, owner } = await serverWithChannel();
    const body = form({ type: 'stream', to: 'general', topic: 'pieces', content: `several pieces ${'x'.repeat(3000)}` }).toString();
    const client = await openRaw(server.url);
    await client.write(
      `POST /api/v1/messages HTTP/1.1\r\nHost: localhost\r\nAuthorization: ${authOf(owner)}\r\n` +
        `Content-Type: application/x-www-form-urlencoded\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n`,
    );
    for (let i = 0; i < body.length; i += 1000) {
      await client.write(body.slice(i, i + 1000));
      await pause(20);
    }
    const response = parseRawResponse(await client.closed);
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ result: 'success' });
    expect(await contents(server)).toContain(`several pieces ${'x'.repeat(3000)}`);
  });

  it('a client that leaves before the end of its body sends nothing, and the server serves on', async () => {
    const { server, owner } = await serverWithChannel();
    // A complete form as far as it goes; Content-Length promises more.
    const sent = form({ type: 'stream', to: 'general', topic: 'cut', content: 'cut short' }).toString();
    const client = await openRaw(server.url);
    await client.write(
      `POST /api/v1/messages HTTP/1.1\r\nHost: localhost\r\nAuthorization: ${authOf(owner)}\r\n` +
        `Content-Type: application/x-www-form-urlencoded\r\nContent-Length: ${sent.length + 100}\r\n\r\n${sent}`,
    );
    await pause(50);
    client.socket.destroy();
    await client.closed;
    await pause(50);
    expectSuccess(await call(server, 'POST', '/messages', { auth: owner, body: form({ type: 'stream', to: 'general', topic: 'after', content: 'after' }) }));
    const seen = await contents(server);
    expect(seen).toContain('after');
    expect(seen).not.toContain('cut short');
  });
});
