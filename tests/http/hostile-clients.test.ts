/**
 * Clients that send too little, too slowly or too much (issue #10): they are answered in the
 * envelope where an answer can still be sent, cut off by the server's deadlines, and never hold
 * up other clients or a shutdown.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { call, closeServers, expectSuccess, startServer } from '../helpers/http.js';
import { openRaw, parseRawResponse, pause } from '../helpers/raw-socket.js';

afterEach(closeServers);

const expectEnvelope = (raw: string, status: number, msg: string) => {
  const response = parseRawResponse(raw);
  expect(response.status, raw).toBe(status);
  expect(response.headers['content-type']).toBe('application/json');
  expect(response.body).toEqual({ result: 'error', msg, code: 'BAD_REQUEST' });
  expect(response.text.endsWith('}\n')).toBe(true);
};

describe('every answer is JSON', () => {
  it('an HTTP/1.1 request without Host: 400 envelope, and the connection closes', async () => {
    const server = await startServer();
    const client = await openRaw(server.url);
    await client.write('GET /api/v1/server_settings HTTP/1.1\r\n\r\n');
    expectEnvelope(await client.closed, 400, 'Missing Host header');
  });

  it('an HTTP/1.0 request may omit Host: it is served', async () => {
    const server = await startServer();
    const client = await openRaw(server.url);
    await client.write('GET /api/v1/server_settings HTTP/1.0\r\n\r\n');
    const response = parseRawResponse(await client.closed);
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ result: 'success' });
  });

  it('a malformed request line, an unknown Expect and oversized headers: envelopes with their statuses', async () => {
    const server = await startServer();
    const garbage = await openRaw(server.url);
    await garbage.write('THIS IS NOT HTTP\r\n\r\n');
    expectEnvelope(await garbage.closed, 400, 'Malformed HTTP request');

    const expectation = await openRaw(server.url);
    await expectation.write('GET /api/v1/server_settings HTTP/1.1\r\nHost: localhost\r\nExpect: the-unexpected\r\n\r\n');
    expectEnvelope(await expectation.closed, 417, 'Expectation Failed');

    const oversized = await openRaw(server.url);
    await oversized.write(`GET /api/v1/server_settings HTTP/1.1\r\nHost: localhost\r\nX-Filler: ${'a'.repeat(20_000)}\r\n\r\n`);
    expectEnvelope(await oversized.closed, 431, 'Request header fields too large');
  });
});

describe('slow clients', () => {
  it('headers that never finish are cut off with a 408 envelope, while other clients are served', async () => {
    const server = await startServer(undefined, { headersTimeoutMs: 300, requestTimeoutMs: 600 });
    const slow = await openRaw(server.url);
    await slow.write('GET /api/v1/server_settings HTTP/1.1\r\nHost: localhost\r\n');
    // Another client is answered while the slow one holds its connection.
    expectSuccess(await call(server, 'GET', '/server_settings'));
    // One header byte a while: each write resets no deadline.
    const drip = (async () => {
      for (let i = 0; i < 40 && !slow.socket.destroyed; i++) {
        await slow.write('X');
        await pause(50);
      }
    })();
    expectEnvelope(await slow.closed, 408, 'Request timeout');
    await drip;
  });

  it('a connection that never sends a byte is answered 408 and closed at the headers deadline', async () => {
    const server = await startServer(undefined, { headersTimeoutMs: 300, requestTimeoutMs: 600 });
    const silent = await openRaw(server.url);
    expectEnvelope(await silent.closed, 408, 'Request timeout');
  });

  it('a buffered body dripped a byte at a time gets a 408 envelope at the body deadline', async () => {
    const server = await startServer(undefined, { bodyReadTimeoutMs: 300 });
    const slow = await openRaw(server.url);
    await slow.write('POST /api/v1/fetch_api_key HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 1000\r\n\r\nu');
    const drip = (async () => {
      for (let i = 0; i < 40 && !slow.socket.destroyed; i++) {
        await slow.write('s');
        await pause(50);
      }
    })();
    expectEnvelope(await slow.closed, 408, 'Request timeout');
    await drip;
  });

  it('an upload body dripped a byte at a time is cut off at the request deadline, leaving no blob', async () => {
    const server = await startServer(undefined, { headersTimeoutMs: 200, requestTimeoutMs: 500 });
    const { owner } = server.world;
    const auth = Buffer.from(`${owner.deliveryEmail}:${owner.apiKey}`).toString('base64');
    const slow = await openRaw(server.url);
    await slow.write(
      'POST /api/v1/user_uploads HTTP/1.1\r\nHost: localhost\r\n' +
        `Authorization: Basic ${auth}\r\nContent-Type: multipart/form-data; boundary=xyz\r\nContent-Length: 100000\r\n\r\n` +
        '--xyz\r\nContent-Disposition: form-data; name="file"; filename="slow.txt"\r\nContent-Type: text/plain\r\n\r\n',
    );
    const drip = (async () => {
      for (let i = 0; i < 60 && !slow.socket.destroyed; i++) {
        await slow.write('z');
        await pause(50);
      }
    })();
    expectEnvelope(await slow.closed, 408, 'Request timeout');
    await drip;
    expect(expectSuccess(await call(server, 'GET', '/attachments', { auth: owner })).attachments).toEqual([]);
  });
});

describe('shutdown', () => {
  it('close() ends past its deadline while a client holds half a request, and cuts that client off', async () => {
    const server = await startServer(undefined, { shutdownTimeoutMs: 200 });
    const headers = await openRaw(server.url);
    await headers.write('GET /api/v1/server_settings HTTP/1.1\r\nHost: localhost\r\n');
    const body = await openRaw(server.url);
    await body.write('POST /api/v1/fetch_api_key HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 100\r\n\r\nusername=');
    await pause(50);
    await server.close();
    // Both connections are gone once close() has resolved (reading either now ends at once).
    await Promise.all([headers.closed, body.closed]);
    expect(headers.socket.destroyed && body.socket.destroyed).toBe(true);
  });
});

describe('credentials before the body', () => {
  it('an upload without valid credentials is refused before its body is read, and the connection closes', async () => {
    const server = await startServer();
    for (const authorization of ['', `Authorization: Basic ${Buffer.from('nobody@example.com:wrongkey').toString('base64')}\r\n`]) {
      const client = await openRaw(server.url);
      // 90 MB announced; only the headers and a first slice are ever sent.
      await client.write(
        `POST /api/v1/user_uploads HTTP/1.1\r\nHost: localhost\r\n${authorization}` +
          'Content-Type: multipart/form-data; boundary=xyz\r\nContent-Length: 94371840\r\n\r\n',
      );
      await client.write(Buffer.alloc(64 * 1024, 'a'));
      const raw = await client.closed;
      const response = parseRawResponse(raw);
      expect(response.status, raw).toBe(401);
      expect(response.headers.connection).toBe('close');
      expect(response.body.result).toBe('error');
    }
  });

  it('a caller without credentials sends at most 1 MiB to the routes it may use', async () => {
    const server = await startServer();
    const big = `username=${'u'.repeat(1024 * 1024)}&password=x`;
    for (const path of ['/fetch_api_key', '/register']) {
      const response = await call(server, 'POST', path, { body: big, headers: { 'content-type': 'application/x-www-form-urlencoded' } });
      expect(response.status).toBe(413);
      expect(response.body).toMatchObject({ result: 'error', code: 'PAYLOAD_TOO_LARGE', msg: 'Request body is too large (limit: 1048576 bytes)' });
    }
  });

  it('a buffered route refuses missing credentials before reading a body of any size', async () => {
    const server = await startServer();
    const client = await openRaw(server.url);
    await client.write(
      'PATCH /api/v1/settings HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 20000000\r\n\r\nfull_name=',
    );
    const response = parseRawResponse(await client.closed);
    expect(response.status).toBe(401);
    expect(response.body).toMatchObject({ result: 'error', code: 'UNAUTHORIZED' });
  });
});
