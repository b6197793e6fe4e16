/**
 * `teamchat serve` as a real process (run from source through tsx) against hostile clients:
 * its data directory is private, unauthenticated uploads do not grow its memory, SIGTERM ends
 * it while a client holds half a request, and a request without Host gets the JSON envelope.
 */
import type { ChildProcess } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { spawnServe } from '../helpers/serve-child.js';
import { openRaw, parseRawResponse, pause } from '../helpers/raw-socket.js';


interface Served {
  child: ChildProcess;
  url: string;
  exited: Promise<number | null>;
}

const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
});

/** Starts `teamchat serve` on a free port and waits until it listens. */
async function serveProcess(dir: string): Promise<Served> {
  const { child, url, exited } = await spawnServe(['--data', dir, '--port', '0', '--shutdown-timeout', '1']);
  children.push(child);
  return { child, url, exited };
}

/** The resident memory of a process, from /proc (no endpoint of the server's own). */
function residentBytes(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8').split('\n').find((l) => l.startsWith('VmRSS:'))!;
  return Number(/(\d+)/.exec(line)![1]) * 1024;
}

const modeOf = (path: string) => statSync(path).mode & 0o777;

/** Sends up to `total` bytes of body after `head`, as fast as the server takes them, until it closes. */
async function pushUntilClosed(url: string, head: string, total: number): Promise<string> {
  const client = await openRaw(url);
  await client.write(head);
  const chunk = Buffer.alloc(1024 * 1024, 0x61);
  // As an HTTP client should (RFC 9112 9.3), stop sending once the server has answered: bytes sent
  // after its close only make it reset the connection, which can drop the answer before it is read.
  const answered = () => client.received() !== '';
  for (let sent = 0; sent < total && !answered() && !client.socket.destroyed && client.socket.writable; sent += chunk.length) await client.write(chunk);
  client.socket.end();
  return client.closed;
}

describe('teamchat serve, as a process', () => {
  it('keeps its data directory private: 0700, files 0600, and tightens an existing directory', { timeout: 90_000 }, async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'teamchat-serve-')), 'data');
    mkdirSync(dir, { mode: 0o755 });
    chmodSync(dir, 0o755);
    const first = await serveProcess(dir);
    expect(modeOf(dir)).toBe(0o700);
    for (const name of ['teamchat.db', 'teamchat.db-wal', 'teamchat.db-shm', 'zuliprc']) expect(modeOf(join(dir, name)), name).toBe(0o600);
    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);

    // A directory left readable by an older version is tightened on the next start.
    chmodSync(dir, 0o755);
    chmodSync(join(dir, 'teamchat.db'), 0o644);
    chmodSync(join(dir, 'zuliprc'), 0o644);
    const second = await serveProcess(dir);
    expect(modeOf(dir)).toBe(0o700);
    expect(modeOf(join(dir, 'teamchat.db'))).toBe(0o600);
    expect(modeOf(join(dir, 'zuliprc'))).toBe(0o600);
    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);
  });

  it('answers unauthenticated 90 MB uploads with 401 without their bodies raising its memory', { timeout: 90_000 }, async () => {
    const served = await serveProcess(join(mkdtempSync(join(tmpdir(), 'teamchat-serve-')), 'data'));
    const before = residentBytes(served.child.pid!);
    const size = 90 * 1024 * 1024;
    const head = `POST /api/v1/user_uploads HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: multipart/form-data; boundary=xyz\r\nContent-Length: ${size}\r\n\r\n`;
    const answers = await Promise.all([1, 2, 3, 4].map(() => pushUntilClosed(served.url, head, size)));
    for (const raw of answers) {
      const response = parseRawResponse(raw);
      expect(response.status).toBe(401);
      expect(response.body).toMatchObject({ result: 'error', code: 'UNAUTHORIZED' });
    }
    const after = residentBytes(served.child.pid!);
    // Buffering even one of the bodies would add 90 MB; the bound leaves room for allocator noise.
    expect(after - before).toBeLessThan(48 * 1024 * 1024);
    served.child.kill('SIGTERM');
    expect(await served.exited).toBe(0);
  });

  it('streams an authenticated 90 MB upload to disk without holding it in memory', { timeout: 120_000 }, async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'teamchat-serve-')), 'data');
    const served = await serveProcess(dir);
    const rc = readFileSync(join(dir, 'zuliprc'), 'utf8');
    const [email, key] = [/email=(.*)/.exec(rc)![1]!, /key=(.*)/.exec(rc)![1]!];
    const before = residentBytes(served.child.pid!);
    const size = 90 * 1024 * 1024;
    const opening = '--xyz\r\nContent-Disposition: form-data; name="file"; filename="big.bin"\r\nContent-Type: application/octet-stream\r\n\r\n';
    const closing = '\r\n--xyz--\r\n';
    const client = await openRaw(served.url);
    await client.write(
      `POST /api/v1/user_uploads HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Basic ${Buffer.from(`${email}:${key}`).toString('base64')}\r\n` +
        `Content-Type: multipart/form-data; boundary=xyz\r\nContent-Length: ${opening.length + size + closing.length}\r\nConnection: close\r\n\r\n${opening}`,
    );
    const chunk = Buffer.alloc(1024 * 1024, 0x62);
    let peak = 0;
    for (let sent = 0; sent < size; sent += chunk.length) {
      await client.write(chunk);
      if (sent % (8 * chunk.length) === 0) peak = Math.max(peak, residentBytes(served.child.pid!));
    }
    await client.write(closing);
    const response = parseRawResponse(await client.closed);
    expect(response.status, response.text).toBe(200);
    expect(response.body).toMatchObject({ result: 'success', filename: 'big.bin' });
    peak = Math.max(peak, residentBytes(served.child.pid!));
    const stored = statSync(join(dir, 'uploads', ...response.body.url.split('/').slice(2)));
    expect(stored.size).toBe(size);
    expect(stored.mode & 0o777).toBe(0o600);
    // The file is 90 MB; what the server holds at any time is a few chunks of it.
    expect(peak - before).toBeLessThan(48 * 1024 * 1024);
    served.child.kill('SIGTERM');
    expect(await served.exited).toBe(0);
  });

  it('answers a request without Host in the envelope, and exits on SIGTERM while clients hold half-sent requests', { timeout: 90_000 }, async () => {
    const served = await serveProcess(join(mkdtempSync(join(tmpdir(), 'teamchat-serve-')), 'data'));
    const hostless = await openRaw(served.url);
    await hostless.write('GET /api/v1/server_settings HTTP/1.1\r\n\r\n');
    const response = parseRawResponse(await hostless.closed);
    expect(response.status).toBe(400);
    expect(response.headers['content-type']).toBe('application/json');
    expect(response.body).toEqual({ result: 'error', msg: 'Missing Host header', code: 'BAD_REQUEST' });

    const halfHeaders = await openRaw(served.url);
    await halfHeaders.write('GET /api/v1/server_settings HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ');
    const halfBody = await openRaw(served.url);
    await halfBody.write('POST /api/v1/fetch_api_key HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 1000\r\n\r\nusername=');
    await pause(200);
    served.child.kill('SIGTERM');
    // One byte a second keeps both connections busy; the process still exits (--shutdown-timeout 1).
    let exited = false;
    void served.exited.then(() => (exited = true));
    for (let i = 0; i < 30 && !exited; i++) {
      await halfHeaders.write('x');
      await halfBody.write('x');
      await pause(1000);
    }
    expect(exited).toBe(true);
    expect(await served.exited).toBe(0);
    await Promise.all([halfHeaders.closed, halfBody.closed]);
  });
});
