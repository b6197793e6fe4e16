/** How the client reports failures: the server's error envelope as ApiError, no usable answer as ConnectionError. */
import { ApiError, ConnectionError, createClient, isTransient } from '@teamchat/client';
import { afterEach, describe, expect, it } from 'vitest';
import { closeServers } from '../helpers/http.js';
import { clientFor, clientWorld } from './helpers.js';

afterEach(closeServers);

/** The rejection of `promise`, which must reject. */
async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => expect.unreachable('expected a rejection'),
    (error: unknown) => error,
  );
}

describe('@teamchat/client errors', () => {
  it('a 400 carries code, msg, status and the envelope’s extra fields', async () => {
    const { mel } = await clientWorld();
    const error = await rejection(mel.getMessages({ anchor: 'newest', num_before: 1, num_after: 0, narrow: [{ operator: 'channel', operand: 'nowhere' }] }));
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 400, code: 'BAD_NARROW', msg: expect.stringMatching(/^Invalid narrow operator: unknown channel/) });

    const missing = await rejection(mel.sendMessage({ type: 'stream', to: 'general', content: 'no topic' }));
    expect(missing).toMatchObject({ status: 400 });
    const confusing = await rejection(mel.sendMessage({ type: 'stream', to: 'x', topic: 'a', subject: 'b', content: 'c' }));
    expect(confusing).toMatchObject({ status: 400, code: 'REQUEST_CONFUSING_VAR', data: { var_name1: 'topic', var_name2: 'subject' } });
    expect(isTransient(confusing)).toBe(false);
  });

  it('wrong credentials: 401 UNAUTHORIZED; a missing object: 404 or 400 with its code', async () => {
    const { server, member, mel } = await clientWorld();
    const wrong = clientFor(server, { deliveryEmail: member.deliveryEmail, apiKey: 'not-the-key' });
    expect(await rejection(wrong.getOwnUser())).toMatchObject({ name: 'ApiError', status: 401, code: 'UNAUTHORIZED' });
    const anonymous = createClient({ url: server.url });
    expect(await rejection(anonymous.getOwnUser())).toMatchObject({ status: 401, code: 'UNAUTHORIZED' });
    expect(await rejection(mel.getMessage({ message_id: 999 }))).toMatchObject({ status: 400, code: 'BAD_REQUEST', msg: 'Invalid message(s)' });
  });

  it('RATE_LIMIT_HIT carries retry-after in seconds', async () => {
    const { server } = await clientWorld();
    const anonymous = createClient({ url: server.url });
    for (let i = 0; i < 5; i++) {
      expect(await rejection(anonymous.fetchApiKey('owner@example.com', 'wrong'))).toMatchObject({ status: 401, code: 'AUTHENTICATION_FAILED' });
    }
    const limited = await rejection(anonymous.fetchApiKey('owner@example.com', 'owner-password'));
    expect(limited).toMatchObject({ status: 429, code: 'RATE_LIMIT_HIT', msg: 'API usage exceeded rate limit' });
    expect((limited as ApiError).retryAfter).toBeGreaterThan(1790);
    expect((limited as ApiError).data['retry-after']).toBe((limited as ApiError).retryAfter);
  });

  it('no server, or an answer that is not the API’s JSON: ConnectionError, transient for 0 and 5xx', async () => {
    const { server, world } = await clientWorld();
    const url = server.url;
    await closeServers();
    const gone = await rejection(createClient({ url }).getServerSettings());
    expect(gone).toBeInstanceOf(ConnectionError);
    expect(gone).toMatchObject({ status: 0 });
    expect(isTransient(gone)).toBe(true);

    const proxyPage = (async () => new Response('<h1>Bad Gateway</h1>', { status: 502, headers: { 'content-type': 'text/html' } })) as typeof fetch;
    const viaProxy = clientFor(server, world.owner, proxyPage);
    const bad = await rejection(viaProxy.getOwnUser());
    expect(bad).toBeInstanceOf(ConnectionError);
    expect(bad).toMatchObject({ status: 502 });
    expect(isTransient(bad)).toBe(true);

    const notFoundPage = (async () => new Response('not here', { status: 404 })) as typeof fetch;
    const lost = await rejection(clientFor(server, world.owner, notFoundPage).getOwnUser());
    expect(lost).toMatchObject({ name: 'ConnectionError', status: 404 });
    expect(isTransient(lost)).toBe(false);
  });

  it('a path parameter left out is refused before any request', async () => {
    const { mel } = await clientWorld();
    // @ts-expect-error message_id is required.
    await expect(mel.getMessage({})).rejects.toThrow('missing path parameter message_id');
  });

  it('an aborted call rejects with the abort, not as a server error', async () => {
    const { mel } = await clientWorld();
    const controller = new AbortController();
    controller.abort();
    const aborted = await rejection(mel.getOwnUser(undefined, { signal: controller.signal }));
    expect(aborted).not.toBeInstanceOf(ApiError);
    expect((aborted as Error).name).toBe('AbortError');
  });
});
