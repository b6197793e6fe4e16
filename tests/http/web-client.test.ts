/**
 * The built web client served at `/` (serve's `webRoot`): caching per kind of file, content
 * types, ETag and 304, HEAD, gzip, refusal of paths that could leave the directory, the API and
 * the probes keeping their paths, and the page that says how to build a missing client.
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openRaw, parseRawResponse } from '../helpers/raw-socket.js';
import { authOf, closeServers, startServer, type TestServer } from '../helpers/http.js';

afterEach(closeServers);

const INDEX = '<!doctype html><html><head><script type="module" src="./assets/index-a1b2c3.js"></script></head><body></body></html>\n';
const SCRIPT = `console.log(${JSON.stringify('x'.repeat(4000))});\n`;
let webRoot: string;
let outside: string;

beforeAll(() => {
  const base = mkdtempSync(join(tmpdir(), 'teamchat-web-'));
  webRoot = join(base, 'dist');
  mkdirSync(join(webRoot, 'assets'), { recursive: true });
  mkdirSync(join(webRoot, '.vite'));
  writeFileSync(join(webRoot, 'index.html'), INDEX);
  writeFileSync(join(webRoot, 'assets/index-a1b2c3.js'), SCRIPT);
  writeFileSync(join(webRoot, 'assets/index-d4e5f6.css'), 'body { color: black }\n');
  writeFileSync(join(webRoot, 'assets/logo-0a1b2c.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47]));
  writeFileSync(join(webRoot, 'assets/font-9z8y.woff2'), Buffer.from('wOF2'));
  writeFileSync(join(webRoot, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>\n');
  writeFileSync(join(webRoot, '.vite/manifest.json'), '{}\n');
  // A file beside the directory, and a link from inside the directory to it.
  outside = join(base, 'secret.txt');
  writeFileSync(outside, 'not for the web\n');
  symlinkSync(outside, join(webRoot, 'assets/link.txt'));
  return () => rmSync(base, { recursive: true, force: true });
});

const web = (server: TestServer, path: string, init: RequestInit = {}) => fetch(`${server.url}${path}`, init);

/** A request sent byte for byte (fetch would normalise `..` and backslashes before sending). */
async function rawGet(server: TestServer, path: string): Promise<{ status: number; body: string }> {
  const client = await openRaw(server.url);
  await client.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`);
  const raw = await client.closed;
  const parsed = parseRawResponse(raw);
  return { status: parsed.status, body: parsed.text };
}

describe('the web client at /', () => {
  it('serves index.html at / revalidated on every load, with its ETag and a 304 for a current copy', async () => {
    const server = await startServer(undefined, { webRoot });
    const response = await web(server, '/', { headers: { 'accept-encoding': 'identity' } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(response.headers.get('cache-control')).toBe('no-cache');
    expect(response.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await response.text()).toBe(INDEX);
    const etag = response.headers.get('etag')!;
    expect(etag).toMatch(/^"[\w-]+"$/);

    const again = await web(server, '/', { headers: { 'accept-encoding': 'identity', 'if-none-match': etag } });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
    expect(again.headers.get('etag')).toBe(etag);
    // A weak form of the tag, and a list holding it, match too; another tag does not.
    expect((await web(server, '/', { headers: { 'accept-encoding': 'identity', 'if-none-match': `"x", W/${etag}` } })).status).toBe(304);
    expect((await web(server, '/', { headers: { 'accept-encoding': 'identity', 'if-none-match': '"stale"' } })).status).toBe(200);
    expect((await web(server, '/index.html', { headers: { 'accept-encoding': 'identity' } })).headers.get('etag')).toBe(etag);
  });

  it('a rebuilt index.html gets a new ETag', async () => {
    const base = mkdtempSync(join(tmpdir(), 'teamchat-web-'));
    writeFileSync(join(base, 'index.html'), '<p>one</p>');
    const server = await startServer(undefined, { webRoot: base });
    const first = (await web(server, '/')).headers.get('etag');
    writeFileSync(join(base, 'index.html'), '<p>two, longer</p>');
    const second = await web(server, '/', { headers: { 'if-none-match': first! } });
    expect(second.status).toBe(200);
    expect(await second.text()).toBe('<p>two, longer</p>');
    rmSync(base, { recursive: true, force: true });
  });

  it('keeps hashed assets for a year, with the content type of each kind of file', async () => {
    const server = await startServer(undefined, { webRoot });
    const cases: [string, string][] = [
      ['/assets/index-a1b2c3.js', 'text/javascript; charset=utf-8'],
      ['/assets/index-d4e5f6.css', 'text/css; charset=utf-8'],
      ['/assets/logo-0a1b2c.png', 'image/png'],
      ['/assets/font-9z8y.woff2', 'font/woff2'],
    ];
    for (const [path, type] of cases) {
      const response = await web(server, path);
      expect(response.status, path).toBe(200);
      expect(response.headers.get('content-type'), path).toBe(type);
      expect(response.headers.get('cache-control'), path).toBe('public, max-age=31536000, immutable');
      await response.arrayBuffer();
    }
    // Files outside assets/ keep no-cache: their names do not change with their content.
    const icon = await web(server, '/favicon.svg');
    expect(icon.headers.get('content-type')).toBe('image/svg+xml');
    expect(icon.headers.get('cache-control')).toBe('no-cache');
  });

  it('gzips text for clients that accept it, and sends it as is to the others', async () => {
    const server = await startServer(undefined, { webRoot });
    const plain = await rawRequestBytes(server, '/assets/index-a1b2c3.js', {});
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.toString()).toBe(SCRIPT);
    const zipped = await rawRequestBytes(server, '/assets/index-a1b2c3.js', { 'accept-encoding': 'br;q=0, gzip' });
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(zipped.headers.vary).toBe('Accept-Encoding');
    expect(Number(zipped.headers['content-length'])).toBeLessThan(SCRIPT.length / 10);
    expect(gunzipSync(zipped.body).toString()).toBe(SCRIPT);
    // Each encoding has its own tag.
    expect(zipped.headers.etag).not.toBe(plain.headers.etag);
    const refused = await rawRequestBytes(server, '/assets/index-a1b2c3.js', { 'accept-encoding': 'gzip;q=0' });
    expect(refused.headers['content-encoding']).toBeUndefined();
    // An image is not compressed again.
    const image = await rawRequestBytes(server, '/assets/logo-0a1b2c.png', { 'accept-encoding': 'gzip' });
    expect(image.headers['content-encoding']).toBeUndefined();
  });

  it('serves the build’s own .br and .gz files when it wrote them', async () => {
    const base = mkdtempSync(join(tmpdir(), 'teamchat-web-'));
    mkdirSync(join(base, 'assets'));
    writeFileSync(join(base, 'assets/app-1.js'), SCRIPT);
    writeFileSync(join(base, 'assets/app-1.js.br'), 'pretend brotli');
    const server = await startServer(undefined, { webRoot: base });
    const br = await rawRequestBytes(server, '/assets/app-1.js', { 'accept-encoding': 'gzip, br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.body.toString()).toBe('pretend brotli');
    const gzip = await rawRequestBytes(server, '/assets/app-1.js', { 'accept-encoding': 'gzip' });
    expect(gunzipSync(gzip.body).toString()).toBe(SCRIPT);
    rmSync(base, { recursive: true, force: true });
  });

  it('answers HEAD with the headers of GET and no body', async () => {
    const server = await startServer(undefined, { webRoot });
    const response = await rawRequestBytes(server, '/assets/index-d4e5f6.css', {}, 'HEAD');
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('text/css; charset=utf-8');
    expect(response.headers['content-length']).toBe('22');
    expect(response.body.length).toBe(0);
  });

  it('refuses every path that could leave the directory or reach a hidden file: 404', async () => {
    const server = await startServer(undefined, { webRoot });
    const attempts = [
      '/../secret.txt',
      '/assets/../../secret.txt',
      '/%2e%2e/secret.txt',
      '/assets/%2e%2e/%2e%2e/secret.txt',
      '/%2E%2E%2Fsecret.txt',
      '/assets/..%2f..%2fsecret.txt',
      '/..\\secret.txt',
      '/assets\\..\\..\\secret.txt',
      '/%5c..%5csecret.txt',
      '/index.html%00.png',
      '/assets/%00',
      '/.vite/manifest.json',
      '/%2evite/manifest.json',
      '/assets/link.txt',
      '//etc/passwd',
      '/assets/',
      '/assets',
    ];
    for (const path of attempts) {
      const response = await rawGet(server, path);
      expect(response.status, path).toBe(404);
      expect(response.body, path).not.toContain('not for the web');
    }
    // A path that is not valid percent-encoding is refused before routing.
    expect((await rawGet(server, '/%E0%A4%A')).status).toBe(400);
  });

  it('leaves the API, the probes and the file routes their paths: JSON from them, never index.html', async () => {
    const server = await startServer(undefined, { webRoot });
    const me = await web(server, '/api/v1/users/me', { headers: { authorization: authOf(server.world.owner) } });
    expect(me.status).toBe(200);
    expect((await me.json()).result).toBe('success');
    for (const path of ['/api/v1/nothing', '/api/v2/users', '/api/', '/api', '/api/v1/index.html', '/json/users']) {
      const response = await web(server, path);
      expect(response.status, path).toBe(404);
      expect(response.headers.get('content-type'), path).toBe('application/json');
      expect((await response.json()).code, path).toBe('NOT_FOUND');
    }
    const health = await web(server, '/health');
    expect(await health.json()).toEqual({ status: 'ok' });
    // A file route still asks for credentials rather than falling through to the client.
    const upload = await web(server, '/user_uploads/1/ab/file.txt');
    expect(upload.status).toBe(401);
    expect(upload.headers.get('content-type')).toBe('application/json');
    // Writes to the client's paths are not a file's business.
    const post = await web(server, '/', { method: 'POST' });
    expect(post.status).toBe(404);
    expect((await post.json()).code).toBe('NOT_FOUND');
  });

  it('without a built client, / answers a short HTML page saying how to build it', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'teamchat-web-'));
    const server = await startServer(undefined, { webRoot: join(empty, 'dist') });
    const response = await web(server, '/');
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const page = await response.text();
    expect(page).toContain('The web client is not built');
    expect(page).toContain('pnpm@10 run build');
    expect(page).toContain('--web-dir');
    // Other paths keep the API's 404.
    expect((await web(server, '/assets/app.js')).headers.get('content-type')).toBe('application/json');
    rmSync(empty, { recursive: true, force: true });
  });

  it('without webRoot (an embedder’s server), / answers the API’s 404 as before', async () => {
    const server = await startServer();
    const response = await web(server, '/');
    expect(response.status).toBe(404);
    expect((await response.json()).code).toBe('NOT_FOUND');
  });
});

/** A request through node's raw socket, whose body is kept as bytes (fetch would decompress it). */
async function rawRequestBytes(
  server: TestServer,
  path: string,
  headers: Record<string, string>,
  method = 'GET',
): Promise<{ status: number; headers: Record<string, string>; body: Buffer }> {
  const { request } = await import('node:http');
  return new Promise((resolve, reject) => {
    const req = request(`${server.url}${path}`, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers as Record<string, string>, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}
