/**
 * POST /user_uploads reads its multipart body as a stream into the blob store: large and
 * chunked bodies, limits hit mid-stream, later parts, and clients that go away, with a
 * file-system store so leftovers would show as files.
 */
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileSystemBlobStore } from '@teamchat/core';
import { afterEach, describe, expect, it } from 'vitest';
import { makeWorld } from '../helpers/core.js';
import { authOf, call, closeServers, expectError, expectSuccess, startServer } from '../helpers/http.js';
import { openRaw, parseRawResponse, pause } from '../helpers/raw-socket.js';

afterEach(closeServers);

const BOUNDARY = 'teamchat-test-boundary';

async function setup(config: Record<string, unknown> = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'teamchat-uploads-'));
  const world = await makeWorld({ uploads: fileSystemBlobStore(dir), config: { timers: false, ...config } });
  const member = await world.addUser({ email: 'mel@example.com', fullName: 'Mel Member' });
  const server = await startServer(world);
  const files = () => readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => e.name);
  return { server, member, files };
}

const partHead = (name: string, filename?: string) =>
  `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"${filename ? `; filename="${filename}"` : ''}\r\n` +
  `${filename ? 'Content-Type: text/plain\r\n' : ''}\r\n`;

/** A multipart body sent as a stream without Content-Length (chunked), in the given pieces. */
function chunkedBody(pieces: (string | Uint8Array)[]): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream({
    pull(controller) {
      const next = pieces.shift();
      if (next === undefined) return controller.close();
      controller.enqueue(typeof next === 'string' ? encoder.encode(next) : next);
    },
  });
}

function post(server: Awaited<ReturnType<typeof setup>>['server'], member: Parameters<typeof authOf>[0], body: ReadableStream<Uint8Array>) {
  return fetch(server.api('/user_uploads'), {
    method: 'POST',
    headers: { authorization: authOf(member), 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
    body,
    duplex: 'half',
  } as RequestInit);
}

const mib = (n: number) => new Uint8Array(n * 1024 * 1024).fill(0x61);

describe('streamed uploads', () => {
  it('a chunked multi-MiB file arrives whole; fields after it are listed as ignored', async () => {
    const { server, member, files } = await setup();
    const response = await post(server, member, chunkedBody([partHead('file', 'big.txt'), mib(1), mib(1), mib(1), '\r\n', partHead('extra'), 'x\r\n', `--${BOUNDARY}--\r\n`]));
    const body = await response.json();
    expect(response.status).toBe(200);
    expect(body).toMatchObject({ result: 'success', filename: 'big.txt', ignored_parameters_unsupported: ['extra'] });
    const served = await fetch(server.url + body.url, { headers: { authorization: authOf(member) } });
    expect((await served.arrayBuffer()).byteLength).toBe(3 * 1024 * 1024);
    expect(files()).toEqual(['big.txt']);
    const attachments = expectSuccess(await call(server, 'GET', '/attachments', { auth: member })).attachments;
    expect(attachments.map((a: { size: number }) => a.size)).toEqual([3 * 1024 * 1024]);
  });

  it('a file over the limit without Content-Length is refused mid-stream, leaving no file or row', async () => {
    const { server, member, files } = await setup({ maxFileUploadSizeMib: 1 });
    const response = await post(server, member, chunkedBody([partHead('file', 'huge.txt'), mib(1), mib(1), '\r\n', `--${BOUNDARY}--\r\n`]));
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ result: 'error', msg: 'Uploaded file is larger than the allowed limit of 1 MiB', code: 'BAD_REQUEST' });
    expect(files()).toEqual([]);
    expect(expectSuccess(await call(server, 'GET', '/attachments', { auth: member })).attachments).toEqual([]);
  });

  it('a second file after a large first one is refused once it shows up, and the first is not kept', async () => {
    const { server, member, files } = await setup();
    const response = await post(server, member, chunkedBody([partHead('a', 'a.txt'), mib(1), '\r\n', partHead('b', 'b.txt'), 'bee\r\n', `--${BOUNDARY}--\r\n`]));
    expect(response.status).toBe(400);
    expect((await response.json()).msg).toBe('You may only upload one file at a time');
    expect(files()).toEqual([]);
  });

  it('a body that ends in the middle of the file: 400, nothing stored', async () => {
    const { server, member, files } = await setup();
    const response = await post(server, member, chunkedBody([partHead('file', 'cut.txt'), mib(1)]));
    expectError({ status: response.status, headers: response.headers, text: '', body: await response.json() }, 400, 'BAD_REQUEST', 'Malformed multipart request body');
    expect(files()).toEqual([]);
  });

  it('a client that disconnects mid-file leaves no temporary file, and the server goes on serving', async () => {
    const { server, member, files } = await setup();
    const client = await openRaw(server.url);
    await client.write(
      `POST /api/v1/user_uploads HTTP/1.1\r\nHost: localhost\r\nAuthorization: ${authOf(member)}\r\n` +
        `Content-Type: multipart/form-data; boundary=${BOUNDARY}\r\nContent-Length: 5000000\r\n\r\n${partHead('file', 'gone.txt')}`,
    );
    await client.write(Buffer.from(mib(1)));
    await pause(200);
    client.socket.destroy();
    await client.closed;
    // The server notices the reset and cleans up; another request is answered meanwhile.
    expectSuccess(await call(server, 'GET', '/attachments', { auth: member }));
    for (let i = 0; i < 50 && files().length > 0; i++) await pause(50);
    expect(files()).toEqual([]);
  });

  it('text fields are held to the general body limit, unlike the file: 413, nothing stored', async () => {
    const { server, member, files } = await setup({ maxRequestBodyBytes: 1024 });
    for (const pieces of [
      [partHead('note'), 'n'.repeat(2000), '\r\n', partHead('file', 'a.txt'), 'abc\r\n', `--${BOUNDARY}--\r\n`],
      [partHead('file', 'a.txt'), 'abc\r\n', partHead('late'), 'l'.repeat(2000), '\r\n', `--${BOUNDARY}--\r\n`],
    ]) {
      const response = await post(server, member, chunkedBody(pieces));
      expect(response.status).toBe(413);
      expect(await response.json()).toEqual({ result: 'error', msg: 'Request body is too large (limit: 1024 bytes)', code: 'PAYLOAD_TOO_LARGE' });
    }
    expect(files()).toEqual([]);
    // The file itself may be far larger than that limit.
    const ok = await post(server, member, chunkedBody([partHead('file', 'b.txt'), 'b'.repeat(100_000), '\r\n', `--${BOUNDARY}--\r\n`]));
    expect(ok.status).toBe(200);
  });

  it('an octet-stream part without a file name is a field, as in the reference, not a second file', async () => {
    const { server, member } = await setup();
    const meta = `--${BOUNDARY}\r\nContent-Disposition: form-data; name="meta"\r\nContent-Type: application/octet-stream\r\n\r\n`;
    const response = await post(server, member, chunkedBody([meta, 'm\r\n', partHead('file', 'a.txt'), 'abc\r\n', `--${BOUNDARY}--\r\n`]));
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ result: 'success', filename: 'a.txt', ignored_parameters_unsupported: ['meta'] });
  });

  it('a malformed multipart header: 400 before the operation runs', async () => {
    const { server, member } = await setup();
    const client = await openRaw(server.url);
    const body = '--xyz\r\nthis is no header\r\n\r\nabc\r\n--xyz--\r\n';
    await client.write(
      `POST /api/v1/user_uploads HTTP/1.1\r\nHost: localhost\r\nAuthorization: ${authOf(member)}\r\n` +
        `Content-Type: multipart/form-data; boundary=xyz\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`,
    );
    const response = parseRawResponse(await client.closed);
    expect(response.status).toBe(400);
    expect(response.body.result).toBe('error');
  });
});
